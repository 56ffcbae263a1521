//! Properties over many seeded games played by the bots: every legal action
//! applies and the try-everything oracle finds none missing (the legal-list
//! oracle); a refused action leaves the state unchanged; no seat's view or
//! event shows another seat's unplayed cards or secret placement; replay is
//! a fold.

use crate::clans_support::*;
use athlas_engine::clans::bot::{seat_to_act, GreedyBot, RandomBot};
use athlas_engine::clans::legal::{legal_actions, legal_by_trial};
use athlas_engine::clans::state::Phase;
use athlas_engine::clans::{Clans, ClansAction, ClansOptions, ClansState};
use athlas_engine::{Ruleset, Seat, Viewer, Visible};
use proptest::prelude::*;

fn options(four: bool, seed: u64) -> ClansOptions {
    let clans = if four {
        vec!["sacred_cross", "crimson_nobles", "crimson_nobles", "sacred_cross"]
    } else {
        vec!["sacred_cross", "crimson_nobles"]
    };
    ClansOptions {
        clans: clans.into_iter().map(String::from).collect(),
        battlefield: if seed.is_multiple_of(2) { "river_valley" } else { "highland_pass" }.into(),
        exp_per_turn: i32::from(seed.is_multiple_of(3)),
        max_turns: Some(40),
        ..ClansOptions::default()
    }
}

/// The unplayed card ids of `p` that no other seat holds unplayed or has
/// played: those may appear in no view but p's own.
fn secret_ids(s: &ClansState, p: Seat) -> Vec<String> {
    let pl = &s.players[p as usize];
    pl.allies
        .iter()
        .chain(&pl.tactics)
        .filter(|c| {
            s.players.iter().filter(|o| o.seat != p).all(|o| o.clan != pl.clan)
                && !s.figures.iter().any(|f| &f.card == *c || f.equipment.as_ref() == Some(*c))
        })
        .cloned()
        .collect()
}

fn check_secrecy(s: &ClansState, events: &[athlas_engine::clans::ClansEvent]) {
    let n = s.players.len() as Seat;
    let viewers: Vec<Viewer> = (0..n).map(Viewer::Seat).chain([Viewer::Spectator]).collect();
    for v in viewers {
        let view = serde_json::to_string(&Clans::view(s, v)).unwrap();
        let shown: Vec<String> =
            events.iter().filter(|e| e.visible_to(v)).map(|e| serde_json::to_string(e).unwrap()).collect();
        for p in 0..n {
            if v == Viewer::Seat(p) {
                continue;
            }
            for id in secret_ids(s, p) {
                let quoted = format!("\"{id}\"");
                assert!(!view.contains(&quoted), "{v:?} sees seat {p}'s unplayed {id}");
                assert!(!shown.iter().any(|e| e.contains(&quoted)), "{v:?} is told seat {p}'s unplayed {id}");
            }
            if s.phase == Phase::Placement {
                let pv = &Clans::view(s, v).players[p as usize];
                assert!(pv.homebase.is_none() && pv.god_at.is_none(), "{v:?} sees seat {p}'s placement");
            }
            // The view does not change when p's secret changes (its stacks reordered).
            let mut other = s.clone();
            other.players[p as usize].allies.reverse();
            other.players[p as usize].tactics.reverse();
            if s.phase == Phase::Placement && s.players[p as usize].homebase.is_some() {
                other.players[p as usize].homebase =
                    s.players[p as usize].homebase.map(|h| athlas_engine::clans::grid::Pos(h.0, h.1));
            }
            let mut a = Clans::view(&other, v);
            let mut b = Clans::view(s, v);
            // The viewer's own legal list may differ only through its own cards.
            a.legal.clear();
            b.legal.clear();
            assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
            // Stronger, and not vacuous in 2v2 where each clan sits twice:
            // p's stacks replaced by other cards (same counts) change no
            // other viewer's view, its legal list included.
            let mut masked = s.clone();
            let mp = &mut masked.players[p as usize];
            for c in mp.allies.iter_mut().chain(mp.tactics.iter_mut()) {
                *c = format!("masked_{c}");
            }
            assert_eq!(
                serde_json::to_string(&Clans::view(&masked, v)).unwrap(),
                serde_json::to_string(&Clans::view(s, v)).unwrap(),
                "{v:?}'s view depends on seat {p}'s unplayed cards"
            );
        }
    }
}

/// Play one game; `oracle_every` positions compare the fast list with the oracle.
fn play(seed: u64, four: bool, greedy: bool, steps: usize, oracle_every: usize) -> ClansState {
    let cat = cat();
    let opts = options(four, seed);
    let mut s = Clans::start(&opts, seed).unwrap();
    let mut log: Vec<(Seat, ClansAction)> = Vec::new();
    let mut rb = RandomBot::new(seed ^ 0x5eed);
    let mut gb = GreedyBot::new(seed ^ 0xb07);
    for i in 0..steps {
        let Some(seat) = seat_to_act(&s) else { break };
        if oracle_every > 0 && i % oracle_every == 0 {
            let athlas_engine::Status::Waiting { seats: waiting } = Clans::status(&s) else { unreachable!() };
            for q in 0..s.players.len() as Seat {
                let fast = legal_actions(&s, cat, q);
                assert_eq!(fast, legal_by_trial(&s, cat, q), "seat {q}, step {i}, seed {seed}");
                if !waiting.contains(&q) {
                    assert!(fast.is_empty(), "a seat not waited for has no legal action");
                }
            }
        }
        // A few refusals each step: the state is unchanged.
        let before = serde_json::to_string(&s).unwrap();
        for bad in [
            ClansAction::EndTurn,
            ClansAction::Pass,
            ClansAction::Attack { figure: 999, target: 1 },
            ClansAction::Assimilate { card: "no_card".into() },
        ] {
            for q in 0..s.players.len() as Seat {
                if Clans::legal(&s, q).contains(&bad) {
                    continue;
                }
                let mut c = s.clone();
                assert!(Clans::apply(&mut c, q, bad.clone()).is_err());
                assert_eq!(serde_json::to_string(&c).unwrap(), before, "refused {bad:?} changed the state");
            }
        }
        let a =
            if greedy { gb.pick(&s, cat, seat) } else { rb.pick(&s, cat, seat) }.expect("a waited seat has an action");
        let events = Clans::apply(&mut s, seat, a.clone()).unwrap_or_else(|e| panic!("legal {a:?} refused: {e}"));
        check_secrecy(&s, &events);
        log.push((seat, a));
    }
    // Replay is a fold.
    let again = athlas_engine::replay::<Clans>(&opts, seed, log).unwrap();
    assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&s).unwrap());
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, .. ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_legal_list_the_secrets_and_refusals(seed in any::<u64>(), four in any::<bool>(), greedy in any::<bool>()) {
        play(seed, four, greedy, 200, 40);
    }
}

/// Fixed seeds, 1v1 and 2v2, random and greedy play: the oracle at many
/// positions, and the games reach the kinds of positions that matter.
#[test]
fn the_legal_list_equals_the_oracle_in_every_kind_of_position() {
    let mut finished = 0;
    for seed in 0..6u64 {
        let s = play(seed, !seed.is_multiple_of(2), !seed.is_multiple_of(3), 400, 15);
        finished += usize::from(s.finished());
    }
    assert!(finished >= 1, "some game reaches its end");
}

#[test]
fn every_action_of_the_legal_list_applies() {
    let cat = cat();
    for seed in 10..14u64 {
        let mut s = Clans::start(&options(seed % 2 == 0, seed), seed).unwrap();
        let mut bot = GreedyBot::new(seed);
        for _ in 0..200 {
            let Some(seat) = seat_to_act(&s) else { break };
            for a in legal_actions(&s, cat, seat) {
                let mut c = s.clone();
                Clans::apply(&mut c, seat, a.clone()).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            }
            let a = bot.pick(&s, cat, seat).unwrap();
            Clans::apply(&mut s, seat, a).unwrap();
        }
    }
}

/// Through the public `Ruleset::apply`: at positions of seeded 1v1 and 2v2
/// games, every candidate action of every seat (`legal::candidates`, a
/// superset of the legal list) is accepted exactly when `legal` lists it,
/// and a refused one leaves the state exactly as it was; through
/// `apply_after_copy` (the server's path) the same.
#[test]
fn apply_accepts_exactly_the_legal_list_and_a_refusal_changes_nothing() {
    use athlas_engine::clans::legal::candidates;
    let cat = cat();
    let mut positions = 0;
    for seed in 20..24u64 {
        let four = seed % 2 == 1;
        let mut s = Clans::start(&options(four, seed), seed).unwrap();
        let mut bot = GreedyBot::new(seed);
        for step in 0..240 {
            let Some(seat) = seat_to_act(&s) else { break };
            if step % 40 == 0 {
                positions += 1;
                for q in 0..s.players.len() as Seat {
                    let legal = Clans::legal(&s, q);
                    let mut accepted = Vec::new();
                    for (i, a) in candidates(&s, cat, q).into_iter().enumerate() {
                        let mut c = s.clone();
                        let answer = Clans::apply(&mut c, q, a.clone());
                        // The server's path, given the copy its table
                        // keeps (every third candidate, for time): the
                        // same answer and the same state.
                        if i % 3 == 0 {
                            let mut by_copy = s.clone();
                            let copied = Clans::apply_after_copy(&mut by_copy, &s, q, a.clone());
                            assert_eq!(format!("{answer:?}"), format!("{copied:?}"), "{a:?}");
                            assert!(by_copy == c, "{a:?} through apply_after_copy");
                        }
                        match answer {
                            Ok(_) => accepted.push(a),
                            Err(e) => {
                                assert!(!e.message.is_empty());
                                assert!(c == s, "refused {a:?} ({}) changed the state", e.code);
                            }
                        }
                    }
                    accepted.sort();
                    accepted.dedup();
                    assert_eq!(accepted, legal, "seat {q}, step {step}, seed {seed}");
                }
            }
            let a = bot.pick(&s, cat, seat).unwrap();
            Clans::apply(&mut s, seat, a).unwrap();
        }
    }
    assert!(positions >= 10);
}
