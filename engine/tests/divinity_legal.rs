//! `legal`: every action a Divinity seat may take now. Random players that
//! pick only from it play every location of the campaign to its end for
//! parties of 1, 2 and 4; everything it lists is accepted; a seat that is
//! not waiting gets nothing; the list depends on the state alone.

use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::content::{Catalogue, School};
use athlas_engine::divinity::legal::{legal, legal_by_trial, legal_standard};
use athlas_engine::divinity::state::{Finish, Phase};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::rng::GameRng;
use athlas_engine::{Ruleset, Seat, Status};

const PARTY: [&str; 4] = ["ifan", "sebille", "red_prince", "fane"];

fn options(location: &str, size: usize) -> DivinityOptions {
    DivinityOptions {
        party: PARTY[..size].iter().map(|p| p.to_string()).collect(),
        location: Some(location.to_string()),
        ..DivinityOptions::default()
    }
}

fn waiting(s: &DivinityState) -> Option<Vec<Seat>> {
    match Divinity::status(s) {
        Status::Waiting { seats } => Some(seats),
        Status::Finished(_) => None,
    }
}

/// What one random game did.
struct Game {
    end: DivinityState,
    actions: usize,
    listed: usize,
    /// States met along the way, every `sample`th.
    samples: Vec<DivinityState>,
}

/// A random player: each step a waiting seat, chosen uniformly, takes an
/// action chosen uniformly from its `legal` list (never empty).
fn play(opts: &DivinityOptions, seed: u64, max: usize, sample: usize) -> Game {
    let cat = Catalogue::standard();
    let mut s = Divinity::start(opts, seed).expect("setup");
    let mut rng = GameRng::from_seed(seed ^ 0x1e6a1);
    let (mut actions, mut listed, mut samples) = (0, 0, Vec::new());
    while let Some(seats) = waiting(&s) {
        assert!(actions < max, "{:?} seed {seed}: not finished after {max} actions ({:?})", opts.location, s.phase);
        assert!(!seats.is_empty(), "someone must be waiting: {:?}", s.phase);
        let seat = seats[rng.below(seats.len() as u32) as usize];
        let list = legal(cat, &s, seat);
        assert!(!list.is_empty(), "seat {seat} waits with nothing legal: {:?}", s.phase);
        listed += list.len();
        if actions % sample == 0 {
            samples.push(s.clone());
        }
        let a = list[rng.below(list.len() as u32) as usize].clone();
        Divinity::apply_with(cat, &mut s, seat, a.clone()).unwrap_or_else(|e| panic!("listed {a:?} refused: {e:?}"));
        actions += 1;
    }
    Game { end: s, actions, listed, samples }
}

const LOCATIONS: [&str; 5] = ["tutorial", "shipwreck", "fort_joy", "hollow_marshes", "temple"];

/// Progress: picking only from `legal`, every location of the campaign
/// reaches its end (an exit and its interlude, or a forced restart) for
/// parties of 1, 2 and 4, and no waiting seat is ever left without a choice.
#[test]
fn random_players_finish_every_location() {
    let mut exits = 0;
    for loc in LOCATIONS {
        for size in [1, 2, 4] {
            for seed in 0..4 {
                let g = play(&options(loc, size), seed * 10 + size as u64, 20_000, usize::MAX);
                assert!(matches!(Divinity::status(&g.end), Status::Finished(_)));
                exits += usize::from(matches!(g.end.phase, Phase::Finished { result: Finish::Exit { .. } }));
                eprintln!(
                    "{loc} party {size} seed {seed}: {} actions, {:.1} legal a step, {:?}",
                    g.actions,
                    g.listed as f64 / g.actions as f64,
                    g.end.phase
                );
            }
        }
    }
    eprintln!("{exits} of 60 games left by an exit");
}

/// Soundness: on states met in random games, every listed action is
/// accepted by `apply` on a copy of the state, each listed once; the list
/// equals `legal_by_trial` (every candidate through `apply`); a seat
/// that is not waiting gets nothing; the list depends only on the state
/// (the same after a round trip through JSON).
#[test]
fn every_listed_action_is_accepted_and_only_waiting_seats_get_any() {
    let cat = Catalogue::standard();
    let mut states = 0;
    for (i, loc) in LOCATIONS.iter().enumerate() {
        let size = [1, 2, 3, 4, 2][i];
        for seed in 0..3 {
            let g = play(&options(loc, size), 100 + seed, 20_000, 2);
            for s in g.samples.iter().chain([&g.end]) {
                states += 1;
                let seats = waiting(s).unwrap_or_default();
                for seat in 0..size as Seat + 1 {
                    let list = legal(cat, s, seat);
                    if !seats.contains(&seat) {
                        assert!(list.is_empty(), "seat {seat} is not waiting but gets {list:?}");
                        continue;
                    }
                    for (k, a) in list.iter().enumerate() {
                        assert!(!list[..k].contains(a), "{a:?} listed twice");
                        let mut copy = s.clone();
                        if let Err(e) = Divinity::apply_with(cat, &mut copy, seat, a.clone()) {
                            panic!("listed {a:?} for seat {seat} refused: {} ({:?})", e.message, s.phase);
                        }
                    }
                    assert_eq!(list, legal_by_trial(cat, s, seat), "the fast list equals the oracle's ({:?})", s.phase);
                    let again: DivinityState = serde_json::from_str(&serde_json::to_string(s).unwrap()).unwrap();
                    assert_eq!(legal_standard(&again, seat), list, "the list depends on the state alone");
                }
            }
        }
    }
    assert!(states > 200, "only {states} states checked");
}

/// A seat not waiting gets nothing, even one that could act out of turn;
/// a finished location lists nothing for anyone.
#[test]
fn nothing_for_a_seat_that_is_not_waiting() {
    let mut s = Divinity::start(&DivinityOptions { leader: Some(1), ..options("tutorial", 2) }, 3).expect("setup");
    assert_eq!(waiting(&s), Some(vec![1]));
    assert!(legal_standard(&s, 0).is_empty());
    assert!(legal_standard(&s, 2).is_empty(), "no such seat");
    let leader = legal_standard(&s, 1);
    assert!(leader.contains(&A::ChooseRound { explore: true }) && leader.contains(&A::ChooseRound { explore: false }));
    // Rest until the tutorial's time runs out: a forced restart.
    while waiting(&s).is_some() {
        let seat = waiting(&s).unwrap()[0];
        let a = if legal_standard(&s, seat).contains(&A::ChooseRound { explore: false }) {
            A::ChooseRound { explore: false }
        } else {
            A::EndTurn
        };
        Divinity::apply(&mut s, seat, a).expect("accepted");
    }
    for seat in 0..2 {
        assert!(legal_standard(&s, seat).is_empty());
    }
}

/// Deterministic: the same seed gives the same game, list for list.
#[test]
fn the_same_game_gives_the_same_lists() {
    let a = play(&options("shipwreck", 3), 5, 20_000, 10);
    let b = play(&options("shipwreck", 3), 5, 20_000, 10);
    assert_eq!(a.actions, b.actions);
    for (x, y) in a.samples.iter().zip(&b.samples) {
        for seat in 0..3 {
            assert_eq!(legal_standard(x, seat), legal_standard(y, seat));
        }
    }
}

/// Staying is one choice: `travel` with `null`, not also to the Origin's
/// own space (accepted, but the same move twice in a menu).
#[test]
fn travel_lists_staying_once() {
    let mut s = Divinity::start(&options("tutorial", 2), 7).unwrap();
    Divinity::apply(&mut s, 0, A::ChooseRound { explore: true }).unwrap();
    assert!(matches!(s.phase, Phase::Travel { .. }), "{:?}", s.phase);
    let here = Catalogue::standard().locations["tutorial"].map.spaces[s.origins[0].space].id.clone();
    let list = legal_standard(&s, 0);
    assert!(list.contains(&A::Travel { to: None }), "{list:?}");
    assert!(!list.contains(&A::Travel { to: Some(here.clone()) }), "{list:?}");
    // Still accepted when sent, as staying.
    let mut stay = s.clone();
    Divinity::apply(&mut stay, 0, A::Travel { to: Some(here) }).unwrap();
    assert_eq!(stay.origins[0].space, s.origins[0].space);
}

/// The list equals the oracle's for `seat` in `s`; returns it.
fn as_the_oracle(s: &DivinityState, seat: Seat) -> Vec<A> {
    let cat = Catalogue::standard();
    let list = legal(cat, s, seat);
    assert_eq!(list, legal_by_trial(cat, s, seat), "the fast list equals the oracle's ({:?})", s.phase);
    list
}

/// Soundness where random players seldom go: over games the party bot plays
/// (what the load generator plays), at every position and for every
/// waiting seat, the list equals the oracle's; those games buy, sell,
/// restock and level up at the Merchant, which random players almost never
/// afford, so the Merchant's checks are held to accepting what `apply`
/// accepts, not only to refusing.
#[test]
fn party_bot_games_list_what_the_oracle_lists() {
    use athlas_engine::divinity::bot;
    use athlas_engine::Viewer;
    let cat = Catalogue::standard();
    let mut listed = std::collections::BTreeMap::<&str, usize>::new();
    for (loc, size, seed) in [("fort_joy", 3, 0), ("temple", 3, 0)] {
        let mut s = Divinity::start(&options(loc, size), seed).expect("setup");
        let mut i = 0;
        while let Some(seats) = waiting(&s) {
            assert!(i < 3_000, "{loc}: not finished");
            let lists: Vec<Vec<A>> = seats.iter().map(|&seat| as_the_oracle(&s, seat)).collect();
            for a in lists.iter().flatten() {
                let kind = match a {
                    A::Buy { .. } => "buy",
                    A::Sell { .. } => "sell",
                    A::Restock { .. } => "restock",
                    A::VisitMerchant { .. } => "visit_merchant",
                    A::FinishInterlude => "finish_interlude",
                    A::UseAbility { .. } => "use_ability",
                    A::Revive { .. } => "revive",
                    _ => continue,
                };
                *listed.entry(kind).or_default() += 1;
            }
            // The bot plays for a waiting seat in turn that has a choice.
            let Some((seat, a)) = (0..seats.len()).map(|k| seats[(i + k) % seats.len()]).find_map(|seat| {
                let list = &lists[seats.iter().position(|x| *x == seat).expect("waiting")];
                bot::choose(cat, &Divinity::view(&s, Viewer::Seat(seat)), seat, list).map(|a| (seat, a))
            }) else {
                break;
            };
            Divinity::apply_with(cat, &mut s, seat, a).expect("a listed action is accepted");
            i += 1;
        }
        eprintln!("{loc} party {size} seed {seed}: {i} actions, {:?}", s.phase);
    }
    eprintln!("listed: {listed:?}");
    for kind in ["buy", "sell", "restock", "visit_merchant", "finish_interlude", "use_ability", "revive"] {
        assert!(listed.get(kind).is_some_and(|n| *n > 0), "no {kind} listed: {listed:?}");
    }
}

/// Talents flipped once a location: listed while face up and modelled,
/// not once used; `arrow_recovery` only with a card under the arrows deck
/// and room in the backpack. Each list equals the oracle's.
/// The tutorial for two, played to seat 0's first Combat turn.
fn first_combat_turn() -> DivinityState {
    let cat = Catalogue::standard();
    let mut s = Divinity::start(&options("tutorial", 2), 7).expect("setup");
    let mut rng = GameRng::from_seed(7);
    while !matches!(s.phase, Phase::Combat { active: Some(0), .. }) || s.pending_choice().is_some() {
        let seats = waiting(&s).expect("the combat comes before the end");
        let seat = seats[0];
        let list = legal(cat, &s, seat);
        let a = list
            .iter()
            .find(|a| matches!(a, A::ChooseRound { explore: true } | A::StartTurn))
            .or_else(|| list.iter().find(|a| matches!(a, A::Travel { to: Some(t) } if t == "2")))
            .or_else(|| list.iter().find(|a| matches!(a, A::Reveal | A::Resolve { .. } | A::Accept)))
            .cloned()
            .unwrap_or_else(|| list[rng.below(list.len() as u32) as usize].clone());
        if matches!(s.phase, Phase::Combat { active: Some(1), .. }) {
            Divinity::apply_with(cat, &mut s, 1, A::EndTurn).expect("seat 1 ends its turn");
            continue;
        }
        Divinity::apply_with(cat, &mut s, seat, a).expect("listed");
    }
    s
}

#[test]
fn talents_are_listed_as_the_oracle_lists_them() {
    let mut s = first_combat_turn();
    let talent = |t: &str| A::UseTalent { talent: t.to_string() };
    s.origins[0].talents = vec!["opportunist".into(), "escapist".into(), "arrow_recovery".into()];
    s.origins[0].backpack.clear();
    let list = as_the_oracle(&s, 0);
    assert!(list.contains(&talent("opportunist")) && list.contains(&talent("escapist")), "{list:?}");
    let arrows_under = s.item_decks.get("arrows").is_some_and(|d| !d.is_empty());
    assert_eq!(list.contains(&talent("arrow_recovery")), arrows_under, "{list:?}");
    // Used: face down until the next location.
    s.origins[0].talents_used = vec!["opportunist".into()];
    let list = as_the_oracle(&s, 0);
    assert!(!list.contains(&talent("opportunist")) && list.contains(&talent("escapist")), "{list:?}");
    // A full backpack takes no recovered arrow.
    s.origins[0].backpack = vec!["healing_potion".into(); 3];
    let list = as_the_oracle(&s, 0);
    assert!(!list.contains(&talent("arrow_recovery")), "{list:?}");
    // Not the seat's turn: no talent.
    assert!(!as_the_oracle(&s, 1).iter().any(|a| matches!(a, A::UseTalent { .. })));
}

/// A move comes only in the seat's own Combat turn: an Origin with AP to
/// spare and a space beside it gets none in a Rest turn, while another
/// Origin's turn is under way, or before it started its own; the same
/// Origin moves once the turn is its own. (The fast list judges the turn
/// once a list, before any step; random players seldom leave AP to an
/// Origin in those places.)
#[test]
fn moves_are_listed_only_in_the_seats_own_turn() {
    let cat = Catalogue::standard();
    let moves = |list: &[A]| list.iter().filter(|a| matches!(a, A::Move { .. })).count();
    // A Rest turn (L346): every Origin acts, none moves.
    let mut rest = Divinity::start(&options("shipwreck", 2), 7).expect("setup");
    Divinity::apply_with(cat, &mut rest, 0, A::ChooseRound { explore: false }).expect("a Rest round");
    assert!(matches!(rest.phase, Phase::Rest { .. }));
    rest.origins[0].ap = 5;
    assert!(!legal(cat, &rest, 0).is_empty(), "seat 0 rests");
    assert_eq!(moves(&as_the_oracle(&rest, 0)), 0, "a move listed in a Rest turn");
    let mut s = first_combat_turn();
    s.origins[1].ap = 5;
    s.origins[1].downed = false;
    // Seat 0's turn: seat 1 holds AP and may not move.
    assert_eq!(moves(&as_the_oracle(&s, 1)), 0, "seat 1 moves in seat 0's turn");
    // Seat 1's own turn, not started yet: no move either.
    let mut before_start = s.clone();
    if let Phase::Combat { active, .. } = &mut before_start.phase {
        *active = None;
    }
    assert_eq!(moves(&as_the_oracle(&before_start, 1)), 0, "seat 1 moves before its turn started");
    // Its turn under way: the same AP moves it.
    let mut own = s.clone();
    if let Phase::Combat { active, .. } = &mut own.phase {
        *active = Some(1);
    }
    assert!(moves(&as_the_oracle(&own, 1)) > 0, "seat 1 moves in its own turn: {:?}", legal(cat, &own, 1));
}

/// A challenge (E27): a roll, an automatic success from a skill in hand
/// (listed once, before the flip) and then the flipped card's rows; each
/// list equals the oracle's, which random players seldom reach with a
/// keyword in hand.
#[test]
fn a_challenge_lists_its_automatic_success_and_rows_as_the_oracle() {
    use athlas_engine::divinity::action::KeywordFrom;
    let cat = Catalogue::standard();
    let mut s = Divinity::start(&options("tutorial", 2), 7).expect("setup");
    for (seat, a) in [
        (0, A::ChooseRound { explore: true }),
        (0, A::Travel { to: None }),
        (1, A::Travel { to: None }),
        (0, A::Reveal),
        (0, A::Resolve { card: "1".into() }),
    ] {
        Divinity::apply_with(cat, &mut s, seat, a).expect("accepted");
    }
    let auto = A::Challenge {
        auto: Some(("TELEPORTATION".to_string(), KeywordFrom::Skill("phoenix_dive".into()))),
        keywords: vec![],
    };
    let list = as_the_oracle(&s, 0);
    assert!(list.contains(&auto) && list.contains(&A::Challenge { auto: None, keywords: vec![] }), "{list:?}");
    as_the_oracle(&s, 1);
    Divinity::apply_with(cat, &mut s, 0, auto).expect("accepted");
    let list = as_the_oracle(&s, 0);
    assert_eq!(list, (0..3).map(|row| A::ChooseResult { row }).collect::<Vec<_>>());
    as_the_oracle(&s, 1);
}

/// An interlude with a level-up, reached by setting the state: every
/// Origin at `level`, none levelled yet.
fn interlude_at(size: usize, level: u32) -> DivinityState {
    use athlas_engine::divinity::interlude::Interlude;
    let mut s = Divinity::start(&options("fort_joy", size), 0).expect("setup");
    for o in &mut s.origins {
        o.level = level;
    }
    s.level = level;
    s.phase = Phase::Interlude(Interlude {
        to: "hollow_marshes".into(),
        level_up: true,
        leveled: vec![false; size],
        merchant_open: false,
        offer: Vec::new(),
    });
    s
}

fn level_ups(list: &[A]) -> Vec<&A> {
    list.iter().filter(|a| matches!(a, A::LevelUp { .. })).collect()
}

/// Level-ups are judged pair by pair from what the seat's level-up allows
/// (`interlude::LevelUpJudge`), not by building the Origin's talents and
/// skills anew for each pair: over random skill sets and talents (advanced
/// skills with and without their school's training, skills of level 2 or
/// more up to the limit and over it, sets too short or too long, talents
/// another Origin holds, Unrestricted Talents), every seat's list equals
/// the oracle's, and many list level-ups.
#[test]
fn level_ups_are_listed_as_the_oracle_lists_them() {
    let cat = Catalogue::standard();
    let skills: Vec<&String> =
        cat.skills.iter().filter(|(_, d)| d.level > 0 && d.school != School::Source).map(|(id, _)| id).collect();
    let talents: Vec<&String> = cat.talents.keys().collect();
    let mut rng = GameRng::from_seed(48);
    let (mut seats_with, mut listed) = (0, 0);
    for case in 0..48 {
        let size = 1 + rng.below(4) as usize;
        let level = 2 + rng.below(4);
        let mut s = interlude_at(size, level);
        s.options.unrestricted_talents = case % 4 == 3;
        for o in &mut s.origins {
            // Mostly a set of the right size, sometimes one short or over.
            let n = (2 + level as usize).saturating_add_signed([0, 0, 0, 0, -1, 1][rng.below(6) as usize]);
            let mut set: Vec<String> = Vec::new();
            while set.len() < n {
                let k = skills[rng.below(skills.len() as u32) as usize];
                // Level-1 skills six times as often as the others.
                if (cat.skills[k].level == 1 || rng.below(6) == 0) && !set.contains(k) {
                    set.push(k.clone());
                }
            }
            o.skills = set;
            o.hand = o.skills.clone();
            let mut own: Vec<String> = Vec::new();
            while own.len() + 1 < level as usize {
                let t = talents[rng.below(talents.len() as u32) as usize];
                if !own.contains(t) {
                    own.push(t.clone());
                }
            }
            o.talents = own;
        }
        for seat in 0..size as Seat {
            let list = as_the_oracle(&s, seat);
            let n = level_ups(&list).len();
            seats_with += usize::from(n > 0);
            listed += n;
        }
    }
    eprintln!("{seats_with} seats listed {listed} level-ups");
    assert!(seats_with >= 20, "only {seats_with} seats could level up");
}

/// The judge's corners, each against the oracle: an advanced skill kept
/// without its training is listed only with that training as the new
/// talent; a talent another Origin holds is never listed; a levelled
/// Origin lists none; Unrestricted Talents lists talents above the level.
#[test]
fn level_up_corners_are_listed_as_the_oracle_lists_them() {
    let cat = Catalogue::standard();
    let mut s = interlude_at(2, 3);
    let advanced = cat.skills.iter().find(|(_, d)| d.level == 3).map(|(id, d)| (id.clone(), d.school)).unwrap();
    let training = cat.talents.iter().find(|(_, d)| d.training == Some(advanced.1)).map(|(id, _)| id.clone()).unwrap();
    let ones: Vec<String> = cat
        .skills
        .iter()
        .filter(|(_, d)| d.level == 1 && d.school != School::Source)
        .map(|(id, _)| id.clone())
        .take(8)
        .collect();
    s.origins[0].skills = vec![ones[0].clone(), ones[1].clone(), ones[2].clone(), ones[3].clone(), advanced.0.clone()];
    s.origins[0].talents = vec!["pet_pal".into(), "leech".into()];
    s.origins[1].skills = ones[3..8].to_vec();
    s.origins[1].talents = vec!["escapist".into(), "lone_wolf".into()];
    let list = as_the_oracle(&s, 0);
    let ups = level_ups(&list);
    assert!(!ups.is_empty());
    assert!(
        ups.iter().all(|a| matches!(a, A::LevelUp { talent: Some(t), .. } if *t == training)),
        "only {training} trains the kept {}: {ups:?}",
        advanced.0
    );
    // Seat 1 may take neither of seat 0's talents, nor one above level 3.
    let list = as_the_oracle(&s, 1);
    let taken = |a: &&A| matches!(a, A::LevelUp { talent: Some(t), .. } if t == "pet_pal" || t == "leech");
    let above = |a: &&A| matches!(a, A::LevelUp { talent: Some(t), .. } if cat.talents[t].level > 3);
    assert!(!level_ups(&list).is_empty() && !level_ups(&list).iter().any(taken));
    assert!(!level_ups(&list).iter().any(above));
    s.options.unrestricted_talents = true;
    assert!(level_ups(&as_the_oracle(&s, 1)).iter().any(above), "Unrestricted Talents (L1845)");
    // Levelled: nothing more to take.
    if let Phase::Interlude(i) = &mut s.phase {
        i.leveled[1] = true;
    }
    assert!(level_ups(&as_the_oracle(&s, 1)).is_empty());
}

/// The gap that stalled a party (issue 48): a party that starts at a later
/// location without a campaign holds its level-1 skills at the location's
/// level, so at the interlude no level-up made 3 + level skills and every
/// seat waited with nothing listed. Its level-ups now learn one skill like
/// anyone's (ASSUMPTIONS.md, "Levelling up"): the party bot plays Fort Joy
/// with four Origins (seed 0) through its interlude to the exit, and no
/// waiting seat is ever left without a choice.
#[test]
fn a_party_started_at_a_later_location_levels_up_and_sets_out() {
    use athlas_engine::divinity::bot;
    use athlas_engine::Viewer;
    let cat = Catalogue::standard();
    let mut s = Divinity::start(&options("fort_joy", 4), 0).expect("setup");
    assert_eq!(s.origins[0].skills.len(), 4, "the starting kit at level {}", s.origins[0].level);
    let (mut i, mut levelled) = (0, 0);
    while let Some(seats) = waiting(&s) {
        assert!(i < 3_000, "not finished: {:?}", s.phase);
        let lists: Vec<Vec<A>> = seats.iter().map(|&seat| legal(cat, &s, seat)).collect();
        for (seat, list) in seats.iter().zip(&lists) {
            assert!(!list.is_empty(), "seat {seat} waits with nothing listed: {:?}", s.phase);
        }
        let (seat, a) = (0..seats.len())
            .map(|k| seats[(i + k) % seats.len()])
            .find_map(|seat| {
                let list = &lists[seats.iter().position(|x| *x == seat).expect("waiting")];
                bot::choose(cat, &Divinity::view(&s, Viewer::Seat(seat)), seat, list).map(|a| (seat, a))
            })
            .expect("a waiting seat has a choice");
        levelled += usize::from(matches!(a, A::LevelUp { .. }));
        Divinity::apply_with(cat, &mut s, seat, a).expect("a listed action is accepted");
        i += 1;
    }
    assert_eq!(levelled, 4, "each Origin levelled up once");
    assert!(matches!(s.phase, Phase::Finished { result: Finish::Exit { .. } }), "{:?}", s.phase);
    assert_eq!(s.origins[0].skills.len(), 5, "one skill learnt");
}

/// A short set levels up by one skill; a full one as always; one already
/// over its level's count (a crafted campaign) lists none, as the rules
/// refuse it: each against the oracle.
#[test]
fn a_short_skill_set_levels_up_and_an_overfull_one_does_not() {
    let cat = Catalogue::standard();
    let ones: Vec<String> = cat
        .skills
        .iter()
        .filter(|(_, d)| d.level == 1 && d.school != School::Source)
        .map(|(id, _)| id.clone())
        .collect();
    let mut s = interlude_at(3, 3);
    s.origins[0].skills = ones[..4].to_vec();
    s.origins[1].skills = ones[4..9].to_vec();
    s.origins[2].skills = ones[9..15].to_vec();
    assert!(!level_ups(&as_the_oracle(&s, 0)).is_empty(), "4 skills at level 3: learns a fifth");
    assert!(!level_ups(&as_the_oracle(&s, 1)).is_empty(), "5 skills at level 3: learns a sixth");
    assert!(level_ups(&as_the_oracle(&s, 2)).is_empty(), "6 skills at level 3: a seventh is one too many");
    let up = A::LevelUp { talent: Some("opportunist".into()), learn: ones[20].clone(), respec: vec![] };
    let e = Divinity::apply_with(cat, &mut s.clone(), 2, up).expect_err("over the count");
    assert_eq!(e.code, "skill_set");
}
