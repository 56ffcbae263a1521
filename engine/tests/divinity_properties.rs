//! Property tests over whole random Divinity matches: the engine never
//! panics, a rejected action leaves the state byte-for-byte equal, and the
//! accepted action log replays to the same state.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::rng::GameRng;
use athlas_engine::{replay, Ruleset, Seat, Status};
use proptest::prelude::*;

/// Plausible actions (and some nonsense) for a seat.
fn candidates(s: &DivinityState, seat: Seat, rng: &mut GameRng) -> Vec<A> {
    let cat = Catalogue::standard();
    let loc = &cat.locations[&s.location];
    let mut out = vec![
        A::ChooseRound { explore: rng.below(3) > 0 },
        A::Reveal,
        A::Pass,
        A::Accept,
        A::StartTurn,
        A::EndTurn,
        A::Challenge { auto: None, keywords: vec![] },
        A::Recover { status: None },
        A::Travel { to: None },
    ];
    let spaces: Vec<&String> = loc.map.spaces.iter().map(|sp| &sp.id).collect();
    let sp = spaces[rng.below(spaces.len() as u32) as usize].clone();
    out.push(A::Travel { to: Some(sp.clone()) });
    out.push(A::Move { to: sp.clone() });
    out.push(A::Reroll { dice: vec![0], source: rng.below(2) == 0 });
    for r in &s.revealed {
        out.push(A::Resolve { card: r.card.clone() });
        out.push(A::Hold { card: r.card.clone() });
    }
    for h in &s.holding {
        out.push(A::TakeHolding { card: h.clone() });
    }
    let o = &s.origins[seat as usize];
    let aims: Vec<Aim> = s
        .enemies
        .iter()
        .map(|e| Aim::Enemy(e.id))
        .chain((0..s.origins.len() as Seat).map(Aim::Origin))
        .chain([Aim::Space(sp)])
        .collect();
    let aim = aims[rng.below(aims.len() as u32) as usize].clone();
    for i in &o.equipped {
        out.push(A::Use { first_aura: None, include_self: None, card: CardUse::Item(i.clone()), aim: aim.clone() });
    }
    for i in &o.backpack {
        out.push(A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Consumable(i.clone()),
            aim: aim.clone(),
        });
        out.push(A::Equip { item: i.clone() });
        for e in &o.equipped {
            out.push(A::AttachRune { rune: i.clone(), item: e.clone() });
        }
    }
    for e in &o.equipped {
        out.push(A::Store { item: e.clone() });
    }
    for t in &o.talents {
        out.push(A::UseTalent { talent: t.clone() });
    }
    for k in &o.hand {
        out.push(A::Use { first_aura: None, include_self: None, card: CardUse::Skill(k.clone()), aim: aim.clone() });
    }
    for e in &s.enemies {
        out.push(A::Taunt { enemy: e.id });
        out.push(A::Command { target: Aim::Enemy(e.id) });
    }
    for t in 0..s.origins.len() as Seat {
        out.push(A::BreakTie { target: Aim::Origin(t) });
    }
    out.push(A::Command { target: Aim::Origin(seat) });
    // Trading both ways: one item of a random Origin (L1049), stored or
    // equipped at once (L1052).
    let t = rng.below(s.origins.len() as u32) as Seat;
    let equip = rng.below(2) == 0;
    if let Some(i) = s.origins[t as usize].backpack.first() {
        out.push(A::Take { item: i.clone(), from: t, equip });
    }
    if let Some(i) = o.backpack.first() {
        out.push(A::Give { item: i.clone(), to: t, equip });
    }
    // The party's pending choices: every answer while one waits, one otherwise.
    use athlas_engine::divinity::dice::Colour;
    if !s.overflow.is_empty() {
        for (t, other) in s.origins.iter().enumerate() {
            let t = t as Seat;
            for i in other.equipped.iter().chain(&other.backpack) {
                out.push(A::PlaceItem { to: Some(t), drop: Some(i.clone()), pass_to: None });
                out.push(A::PlaceItem { to: Some(t), drop: Some(i.clone()), pass_to: Some(seat) });
            }
            out.push(A::PlaceItem { to: Some(t), drop: None, pass_to: None });
        }
    }
    out.push(A::PlaceItem { to: None, drop: None, pass_to: None });
    let routes = s.route().map_or(1, |r| r.routes.len() + 1);
    for route in 0..routes {
        out.push(A::ChooseRoute { route });
    }
    if s.reduction().is_some() || s.roll_reduction().is_some() {
        for c in [Colour::White, Colour::Blue, Colour::Red] {
            out.push(A::ReduceDice { remove: vec![c] });
            out.push(A::ReduceDice { remove: vec![c, Colour::White] });
        }
    } else {
        out.push(A::ReduceDice { remove: vec![Colour::Red] });
    }
    // Start-of-turn effects in an order (L684): a waiting enemy's, else the
    // seat's own; as offered and reversed.
    let mut order = match s.turn_start() {
        Some(t) => t.statuses.clone(),
        None => s.turn_start_effects(cat, athlas_engine::divinity::state::Who::Origin(seat)),
    };
    out.push(A::OrderTurnStart { order: order.clone() });
    order.reverse();
    out.push(A::OrderTurnStart { order });
    for (t, other) in s.origins.iter().enumerate() {
        if other.downed {
            out.push(A::Revive { to: t as Seat, hp: 1 + rng.below(3) });
        }
    }
    // Interlude.
    out.push(A::FinishInterlude);
    out.push(A::VisitMerchant { level: 1 + rng.below(2), consumables: None });
    let learnable: Vec<&String> = cat.skills.keys().collect();
    let talents: Vec<&String> = cat.talents.keys().collect();
    out.push(A::LevelUp {
        talent: Some(talents[rng.below(talents.len() as u32) as usize].clone()),
        learn: learnable[rng.below(learnable.len() as u32) as usize].clone(),
        respec: vec![],
    });
    if let Some(i) = o.equipped.first() {
        out.push(A::Sell { item: i.clone() });
    }
    if let athlas_engine::divinity::state::Phase::Interlude(i) = &s.phase {
        for item in &i.offer {
            out.push(A::Buy { item: item.clone(), to: seat });
        }
    }
    out
}

fn snapshot(s: &DivinityState) -> String {
    serde_json::to_string(s).unwrap()
}

fn play(options: &DivinityOptions, seed: u64, steps: usize) -> (DivinityState, Vec<(Seat, A)>) {
    let mut s = Divinity::start(options, seed).expect("setup");
    let mut rng = GameRng::from_seed(seed ^ 0x5eed);
    let mut log = Vec::new();
    let n = s.origins.len() as u32;
    for _ in 0..steps {
        let waiting = match Divinity::status(&s) {
            Status::Finished(_) => break,
            Status::Waiting { seats } => seats,
        };
        assert!(!waiting.is_empty(), "someone must be able to act: {:?}", s.phase);
        let seat =
            if rng.below(10) == 0 { rng.below(n) as Seat } else { waiting[rng.below(waiting.len() as u32) as usize] };
        let cands = candidates(&s, seat, &mut rng);
        let a = cands[rng.below(cands.len() as u32) as usize].clone();
        let before = snapshot(&s);
        match Divinity::apply(&mut s, seat, a.clone()) {
            Ok(_) => log.push((seat, a)),
            Err(e) => {
                assert!(!e.message.is_empty());
                assert_eq!(before, snapshot(&s), "rejected {a:?} changed the state ({})", e.message);
            }
        }
    }
    (s, log)
}

fn options(location: &str, party: &[&str]) -> DivinityOptions {
    DivinityOptions {
        party: party.iter().map(|p| p.to_string()).collect(),
        location: Some(location.to_string()),
        ..DivinityOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn rejected_actions_change_nothing_and_replay_is_deterministic(
        seed in any::<u64>(),
        loc in 0usize..5,
        size in 1usize..=4,
    ) {
        let locs = ["tutorial", "shipwreck", "fort_joy", "hollow_marshes", "temple"];
        let party = ["ifan", "sebille", "red_prince", "fane"];
        let opts = options(locs[loc], &party[..size]);
        let (end, log) = play(&opts, seed, 600);
        let again = replay::<Divinity>(&opts, seed, log.clone()).expect("the log replays");
        prop_assert_eq!(snapshot(&end), snapshot(&again));
        // Views of every seat serialise.
        for v in 0..size as Seat {
            serde_json::to_string(&Divinity::view(&end, athlas_engine::Viewer::Seat(v))).unwrap();
        }
    }
}

/// Whole random matches reach combat and finish locations, so the property
/// above exercises more than the first round.
#[test]
fn random_play_gets_somewhere() {
    let mut combats = 0;
    let mut finished = 0;
    let mut attacks = 0;
    for seed in 0..30u64 {
        let (s, log) = play(&options("shipwreck", &["ifan", "sebille", "red_prince"]), seed, 1500);
        assert!(!log.is_empty());
        if s.round > 1 && log.iter().any(|(_, a)| matches!(a, A::StartTurn)) {
            combats += 1;
        }
        if matches!(Divinity::status(&s), Status::Finished(_)) {
            finished += 1;
        }
        attacks += log.iter().filter(|(_, a)| matches!(a, A::Use { .. })).count();
    }
    eprintln!("combats {combats}, finished {finished}, cards used {attacks}");
    assert!(attacks > 10, "only {attacks} cards used in 30 games");
    assert!(combats > 5, "combat reached in {combats} of 30 games");
    assert!(finished > 0, "no random game finished the location");
}
