//! The record hash's input for Divinity (`Divinity::hashed`, its compact
//! encoding written by hand in `divinity/hashed.rs`) is byte for byte the
//! generic compact encoding of the whole state, as records were hashed
//! before (their stored hashes must still verify), and its JSON (the form
//! 2 hashes, re-hashed through the same value) the state's own: at every
//! position of party-bot games at several locations, through interludes,
//! to the end and into a campaign carried over, and at positions given by
//! hand the shapes the bots seldom reach.

use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{CardRef, TrackCard};
use athlas_engine::divinity::damage::Environment;
use athlas_engine::divinity::state::{
    AttachedRune, ChallengeResultKind, ChallengeState, EnemyKind, Finish, Interlude, Overflow, Phase, ReactionWait,
    RestStep, Revealed, RoundKind, Who,
};
use athlas_engine::divinity::status::Status;
use athlas_engine::divinity::used::Used;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::Ruleset;
use athlas_protocol::hash::compact;

use crate::divinity_support::{bot_step, waiting};

/// The bytes the hash is taken over, and those the generic writer writes
/// of the state; the JSON of the same two.
#[track_caller]
fn same_bytes(s: &DivinityState, what: &str) {
    let (mut by_hand, mut generic) = (Vec::new(), Vec::new());
    compact::write(&mut by_hand, &Divinity::hashed(s));
    compact::write(&mut generic, s);
    if by_hand != generic {
        let at = by_hand.iter().zip(&generic).take_while(|(a, b)| a == b).count();
        panic!(
            "{what}: the bytes differ at {at} of {} (by hand) and {} (generic): {:?} against {:?}",
            by_hand.len(),
            generic.len(),
            &by_hand[at.saturating_sub(16)..(at + 16).min(by_hand.len())],
            &generic[at.saturating_sub(16)..(at + 16).min(generic.len())],
        );
    }
    assert_eq!(serde_json::to_string(&Divinity::hashed(s)).unwrap(), serde_json::to_string(s).unwrap(), "{what}: JSON");
}

/// The shapes met, so that a game that no longer reaches one is noticed.
#[derive(Debug, Default)]
struct Met {
    phases: [usize; 8],
    choice: usize,
    challenge: usize,
    campaign: usize,
    boss: usize,
    statuses: usize,
    tokens: usize,
    keys: usize,
    stack_rounds: usize,
    time: usize,
    revealed: usize,
    explored: usize,
    used: usize,
}

impl Met {
    fn see(&mut self, s: &DivinityState) {
        self.phases[match s.phase {
            Phase::ChooseRound => 0,
            Phase::Travel { .. } => 1,
            Phase::Groups { .. } => 2,
            Phase::Resolve => 3,
            Phase::Rest { .. } => 4,
            Phase::Combat { .. } => 5,
            Phase::Interlude(_) => 6,
            Phase::Finished { .. } => 7,
        }] += 1;
        let tracks = || s.origins.iter().map(|o| &o.track).chain(s.enemies.iter().map(|e| &e.track));
        let count = |b: bool| usize::from(b);
        self.choice += count(s.choice.is_some());
        self.challenge += count(s.challenge.is_some());
        self.campaign += count(s.options.campaign.is_some());
        self.boss += count(s.enemies.iter().any(|e| matches!(e.kind, EnemyKind::Boss { .. })));
        self.statuses +=
            count(tracks().any(|t| {
                t.slots.iter().flatten().any(|c| matches!(c.card, CardRef::Status(_)) && c.flip_at.is_none())
            }));
        self.tokens += count(!s.map.tokens.is_empty());
        self.keys += count(!s.map.keys.is_empty());
        self.stack_rounds += count(!s.stack_rounds.is_empty());
        self.time += count(s.time.is_some());
        self.revealed += count(!s.revealed.is_empty());
        self.explored += count(!s.explored.is_empty());
        self.used += count(!s.used.is_empty());
    }
}

/// Every position of a party-bot game from `s` until it ends (or 1,500
/// actions) checked; the last returned.
fn play(mut s: DivinityState, what: &str, met: &mut Met) -> DivinityState {
    let cat = Catalogue::standard();
    for i in 0..1_500 {
        met.see(&s);
        same_bytes(&s, &format!("{what}, action {i}"));
        if waiting(&s).is_empty() || !bot_step(cat, &mut s, i) {
            break;
        }
    }
    s
}

fn options(party: &[&str], location: Option<&str>) -> DivinityOptions {
    DivinityOptions {
        party: party.iter().map(|p| p.to_string()).collect(),
        location: location.map(str::to_string),
        ..DivinityOptions::default()
    }
}

/// Shapes the bots seldom or never reach, set by hand on copies of `s`:
/// among them a reaction's hold, an overflow, cards placed on the map,
/// runes and a summon (none met in the games above), every phase and rest
/// step, every status on a track, each kind of use.
fn odd_shapes(s: &DivinityState, seed: usize) -> Vec<(DivinityState, &'static str)> {
    let mut out = Vec::new();
    let mut o = s.clone();
    o.options.leader = Some(1);
    o.options.solo = true;
    o.options.location = None;
    o.time = Some(300);
    o.time_paused = true;
    o.gold = 1_000_000;
    o.journal = vec![0, 127, 128, u32::MAX];
    // Strings whose length takes two bytes, and one of none.
    o.found.extend(["f".repeat(127), "f".repeat(128), "f".repeat(300), String::new()]);
    o.item_decks.entry("deck".into()).or_default().push("d".repeat(200));
    o.map.keys.extend([0, 200]);
    o.map.placed.insert(7, "card".into());
    o.map.tokens.insert(3, Environment::DifficultTerrain);
    o.map.tokens.insert(200, Environment::Charged);
    o.stack_rounds.insert("stack".into(), 3);
    o.explored.extend([1, 300]);
    o.enemy_queue = vec![5, 1000];
    o.queue_fast = true;
    o.overflow.push(Overflow { item: "sword".into(), takers: vec![0, 2] });
    o.revealed.push(Revealed { card: "4".into(), seats: vec![1, 3], space: 400, placed: true });
    o.used.insert(Used::Reroll { seat: 1, item: "copper_band".into() }, 2);
    o.used.insert(Used::Ability { seat: 0 }, 300);
    o.used.insert(Used::card(10, "zap"), 1);
    o.reaction = Some(ReactionWait { enemy: 3, next: 1, target: Who::Enemy(200), tactic: Some("t".into()) });
    o.challenge = Some(ChallengeState {
        card: "c".into(),
        group: vec![0, 1],
        space: 2,
        results: [(0, ChallengeResultKind::Hits(3)), (1, ChallengeResultKind::Row(1))].into(),
        flipped: seed.is_multiple_of(2).then_some(1),
    });
    o.round_kind = [RoundKind::Explore, RoundKind::Rest, RoundKind::Combat][seed % 3];
    let origin = &mut o.origins[seed % s.origins.len()];
    origin.summon = Some("spirit".into());
    origin.runes.push(AttachedRune { rune: "rune".into(), item: "sword".into(), side: 1 });
    origin.space = 1000;
    origin.hand.push("h".repeat(130));
    let slots = origin.track.slots.len();
    for (i, st) in Status::ALL.into_iter().enumerate() {
        origin.track.slots[i % slots].push(TrackCard {
            card: CardRef::Status(st),
            face_up: i % 2 == 0,
            flip_at: (i % 3 == 0).then_some(i as u8),
        });
    }
    origin.track.slots[0].push(TrackCard { card: CardRef::Tactic("t".into()), face_up: true, flip_at: None });
    origin.track.slots[0].push(TrackCard { card: CardRef::Consumable("c".into()), face_up: false, flip_at: Some(1) });
    if let Some(e) = o.enemies.first_mut() {
        e.letter = Some('é');
        e.kind = EnemyKind::Boss { boss: "boss".into() };
        e.tactics = vec!["a".into(), "b".into()];
        e.fast = true;
    }
    out.push((o, "odd fields"));
    let done = vec![true; s.origins.len()];
    let steps = [
        RestStep::NotBegun,
        RestStep::StartOfTurn,
        RestStep::Recover,
        RestStep::Revive,
        RestStep::EquipAndTrade,
        RestStep::UseCard,
    ];
    for (phase, what) in [
        (Phase::ChooseRound, "choose round"),
        (Phase::Travel { done: done.clone() }, "travel"),
        (Phase::Groups { groups: vec![vec![0, 1], vec![2]], chosen: vec![true, false] }, "groups"),
        (Phase::Resolve, "resolve"),
        (Phase::Rest { done: done.clone(), steps: steps.to_vec() }, "rest"),
        (Phase::Combat { done: done.clone(), active: Some(1) }, "combat"),
        (Phase::Combat { done: done.clone(), active: None }, "combat, no one active"),
        (
            Phase::Interlude(Interlude {
                to: "fort_joy".into(),
                level_up: true,
                leveled: done.clone(),
                merchant_open: true,
                offer: vec!["a".into(), "b".into()],
            }),
            "interlude",
        ),
        (Phase::Finished { result: Finish::Exit { to: "x".into(), level_up: false } }, "exit"),
        (Phase::Finished { result: Finish::Restart }, "restart"),
    ] {
        let mut p = s.clone();
        p.phase = phase;
        out.push((p, what));
    }
    out
}

#[test]
fn the_hashed_state_written_by_hand_is_the_generic_encoding() {
    let mut met = Met::default();
    let mut last = Vec::new();
    let party = ["ifan", "sebille", "red_prince", "fane"];
    let mut games = vec![("tutorial", 2, 3), ("fort_joy", 1, 9)];
    for seed in 0..3 {
        games.extend([("shipwreck", 3, seed), ("fort_joy", 3, seed), ("hollow_marshes", 4, seed), ("temple", 4, seed)]);
    }
    for (n, (location, size, seed)) in games.into_iter().enumerate() {
        let mut o = options(&party[..size], Some(location));
        // Enemy rolls wait for rerolls in some games and not in others.
        o.reroll_enemy_rolls = n % 2 == 0;
        o.party_breaks_ties = n % 3 != 2;
        let what = format!("{location}, seed {seed}");
        last.push(play(Divinity::start(&o, seed).expect("setup"), &what, &mut met));
    }
    // A campaign carried over, twice: the options hold it.
    let cat = Catalogue::standard();
    let party = ["lohse", "beast"];
    let mut s = play(Divinity::start(&options(&party, None), 5).expect("setup"), "tutorial", &mut met);
    let mut carried = 0;
    for seed in [6, 7] {
        let Some(campaign) = Divinity::campaign(&s, cat) else { break };
        carried += 1;
        let next = DivinityOptions { campaign: Some(campaign), ..options(&party, None) };
        s = play(Divinity::start(&next, seed).expect("the next location"), &format!("campaign, seed {seed}"), &mut met);
    }
    assert_eq!(carried, 2, "the campaign is carried over twice");
    last.push(s);
    for (i, s) in last.iter().enumerate() {
        for (odd, what) in odd_shapes(s, i) {
            same_bytes(&odd, &format!("game {i}, {what}"));
        }
    }
    let Met { phases, .. } = &met;
    assert!(phases.iter().all(|n| *n > 0), "{met:?}");
    for (n, what) in [
        (met.choice, "a waiting decision"),
        (met.challenge, "a challenge"),
        (met.campaign, "a campaign carried over"),
        (met.boss, "a Boss"),
        (met.statuses, "statuses on a track"),
        (met.tokens, "environment tokens"),
        (met.keys, "keys on paths"),
        (met.stack_rounds, "combat stack rounds"),
        (met.time, "a time limit"),
        (met.revealed, "cards revealed"),
        (met.explored, "multicard spaces explored"),
        (met.used, "uses"),
    ] {
        assert!(n > 0, "{what} never met: {met:?}");
    }
}
