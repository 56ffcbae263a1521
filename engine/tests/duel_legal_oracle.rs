//! The fast legal-action generator (`legal_actions`, which judges most
//! candidates from the state) lists exactly what the oracle (`legal_by_trial`,
//! which tries every candidate on a copy) lists, for both seats at every
//! position of random games, campaign games and the recorded golden games.
//! The test also counts the kinds of positions it met, so it fails if the
//! games stop reaching the cases where the judging differs (a DI waiting for
//! its answer, a response window, a casualty or relic choice, a timed DI).

use crate::common;
use athlas_engine::duel::bot::RandomBot;
use athlas_engine::duel::card::Catalogue;
use athlas_engine::duel::legal::{legal_actions, legal_by_trial};
use athlas_engine::duel::{Duel, DuelAction, DuelOptions, DuelState, Target};
use athlas_engine::hex::Hex;
use athlas_engine::rng::GameRng;
use athlas_engine::{Ruleset, Seat};
use common::*;
use proptest::prelude::*;
use serde::Deserialize;

/// Which kinds of position were compared.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    pending: usize,
    window: usize,
    casualty: usize,
    relic_choice: usize,
    activation: usize,
    timed_di: usize,
    /// Listed choices of several hexes (Flood, Tsunami) whose rule was tried.
    choices: usize,
}

fn compare(s: &DuelState, seen: &mut Seen) {
    let cat = Catalogue::standard();
    for seat in 0..2 as Seat {
        let fast = legal_actions(s, cat, seat);
        let oracle = legal_by_trial(s, cat, seat);
        assert_eq!(fast, oracle, "seat {seat} at {}", serde_json::to_string(s).unwrap());
        choices_hold(s, seat, &fast, seen);
        seen.timed_di += fast.iter().filter(|a| matches!(a, DuelAction::CastDi { at: Some(_), .. })).count().min(1);
    }
    let g = &s.game;
    seen.positions += 1;
    seen.pending += usize::from(s.pending.is_some());
    seen.window += usize::from(s.window.is_some());
    seen.casualty += usize::from(!g.casualties.is_empty());
    seen.relic_choice += usize::from(g.relic_choice.is_some());
    seen.activation += usize::from(g.activation.is_some());
}

/// A listed choice of hexes offers exactly the actions its rule allows
/// (`HexChoice::allows`): random choices it offers, random subsets of its
/// hexes (up to one over its count), a hex twice and a hex outside it, each
/// sent on a copy, are accepted iff the rule says so.
fn choices_hold(s: &DuelState, seat: Seat, listed: &[DuelAction], seen: &mut Seen) {
    let mut rng = GameRng::from_seed(seen.positions as u64 * 2 + u64::from(seat));
    for a in listed.iter().filter(|a| a.hex_choice().is_some()).take(2) {
        let c = a.hex_choice().unwrap();
        let mut below = |n: usize| rng.below(n as u32) as usize;
        let mut tries: Vec<Vec<Hex>> = (0..3).map(|_| c.pick(&mut below)).collect();
        for _ in 0..3 {
            let k = below(c.up_to as usize + 2);
            let mut pool = c.from.clone();
            let mut hexes = Vec::new();
            while hexes.len() < k && !pool.is_empty() {
                hexes.push(pool.swap_remove(below(pool.len())));
            }
            tries.push(hexes);
        }
        tries.extend(c.from.first().map(|h| vec![*h, *h]));
        tries.extend(s.game.grid.hexes().find(|h| !c.from.contains(h)).map(|h| vec![h]));
        for hexes in tries {
            let mut send = a.clone();
            if let DuelAction::CastDi { target, .. } | DuelAction::UsePower { target, .. } = &mut send {
                target.choose = None;
                target.hexes = hexes.clone();
            }
            let accepted = Duel::apply(&mut s.clone(), seat, send.clone()).is_ok();
            assert_eq!(accepted, c.allows(&hexes), "{send:?} from {a:?}");
            assert_eq!(a.with_hexes(hexes).is_some(), accepted);
        }
        seen.choices += 1;
    }
}

fn play(seed: u64, campaign: bool, steps: usize, seen: &mut Seen) {
    let cat = Catalogue::standard();
    let options = DuelOptions { campaign: campaign.then(Default::default), ..Default::default() };
    let mut s = Duel::start(&options, seed).unwrap();
    let mut bot = RandomBot::new(seed ^ 0x51);
    for _ in 0..steps {
        compare(&s, seen);
        let Some(seat) = bot.seat_to_act(&s) else { break };
        let Some(a) = bot.pick(&s, cat, seat) else { break };
        Duel::apply(&mut s, seat, a.clone()).unwrap_or_else(|e| panic!("legal {a:?} rejected: {e}"));
    }
    compare(&s, seen);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn the_fast_list_equals_the_oracle_in_random_games(seed in any::<u64>(), campaign in any::<bool>()) {
        play(seed, campaign, 200, &mut Seen::default());
    }
}

/// A fixed set of seeds, with a floor on each kind of position met.
#[test]
fn the_fast_list_equals_the_oracle_in_every_kind_of_position() {
    let mut seen = Seen::default();
    for seed in 0..24 {
        play(seed, seed % 3 == 0, 250, &mut seen);
    }
    #[derive(Deserialize)]
    struct Golden {
        options: DuelOptions,
        seed: u64,
        log: Vec<(Seat, DuelAction)>,
    }
    let games: Vec<Golden> = serde_json::from_str(include_str!("duel_golden/games.json")).unwrap();
    for g in games {
        let mut s = Duel::start(&g.options, g.seed).unwrap();
        for (seat, a) in g.log {
            compare(&s, &mut seen);
            Duel::apply(&mut s, seat, a).unwrap();
        }
        compare(&s, &mut seen);
    }
    // The rarest positions, set up as scenarios (duel_rules, duel_review).
    casualty_and_relic_choices(&mut seen);
    eprintln!("{seen:?}");
    assert!(seen.positions > 3000, "{seen:?}");
    for (kind, n) in [
        ("pending", seen.pending),
        ("window", seen.window),
        ("casualty", seen.casualty),
        ("relic_choice", seen.relic_choice),
        ("activation", seen.activation),
        ("timed_di", seen.timed_di),
        ("choices", seen.choices),
    ] {
        assert!(n >= 1, "no position with {kind}: {seen:?}");
    }
}

/// A multi-target attack waiting for the defender's casualty, and a relic
/// holder pushed by the opponent waiting for its controller's relic choice.
fn casualty_and_relic_choices(seen: &mut Seen) {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut w = alpha(&["savage_warrior"]);
    w.life = Some(2);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["shadow_ranger", "fire_strike"])], &["unnatural_force"]), player(vec![w], &[])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0)), unit(1, 0, h(2, -1))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("fire_strike".into(), 1);
    activate(&mut s, 0, h(0, 0));
    compare(&s, seen);
    let target = unit_at(&s, h(2, 0));
    ok(&mut s, 0, power_on_unit("fire_strike", target));
    assert!(!s.game.casualties.is_empty());
    compare(&s, seen);

    let b = board(&[], [h(0, 0), h(1, 0), h(-4, 4)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["savage_warrior"])], &[]), player(vec![alpha(&["savage_warrior"])], &["unnatural_force"])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))],
    );
    let holder = unit_at(&s, h(0, 0));
    compare(&s, seen);
    let push = Target { unit: Some(holder), direction: Some(0), ..Default::default() };
    ok(&mut s, 1, DuelAction::CastDi { target: push, at: None });
    assert!(s.game.relic_choice.is_some());
    compare(&s, seen);
}
