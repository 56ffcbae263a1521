//! Fuzzing both rulesets' actions from the wire's side: arbitrary bytes,
//! arbitrary JSON and mutated legal actions are deserialized as the server
//! does (`Action::deserialize`) and, when they parse, applied to states
//! reached by random legal play. The engine never panics, a refused action
//! leaves the state byte-for-byte equal, and an accepted one leaves a state
//! whose views still serialize. (`duel_properties.rs` and
//! `divinity_properties.rs` try typed junk actions over whole games; this
//! tries what a client can put in a frame.)
//!
//! `ATHLAS_FUZZ_CASES` sets the number of cases (default 64 per game).

use std::sync::OnceLock;

use athlas_engine::divinity::{Divinity, DivinityOptions};
use athlas_engine::duel::{Duel, DuelOptions};
use athlas_engine::rng::GameRng;
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// One thing a client might send as an action.
#[derive(Debug, Clone)]
enum Input {
    Bytes(Vec<u8>),
    Json(Value),
    /// A legal action (picked by index) with some of its parts replaced
    /// (none: the legal action itself, so the game moves on).
    Mutated {
        pick: usize,
        edits: Vec<(usize, Edit)>,
    },
}

#[derive(Debug, Clone)]
enum Edit {
    Replace(Value),
    Remove,
    Huge(u8),
}

/// Words the games use, so random JSON often has the right tags and keys.
fn vocabulary() -> &'static Vec<String> {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words = std::collections::BTreeSet::new();
        let mut add = |v: &Value| collect_words(v, &mut words);
        let d = Duel::start(&DuelOptions::default(), 1).unwrap();
        for a in Duel::legal(&d, 0) {
            add(&serde_json::to_value(a).unwrap());
        }
        let (states, _) = walk::<Divinity>(&divinity_options(), 1, 30);
        for (s, seat) in states {
            for a in Divinity::legal(&s, seat) {
                add(&serde_json::to_value(a).unwrap());
            }
        }
        words.into_iter().collect()
    })
}

fn collect_words(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| collect_words(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.insert(k.clone());
            collect_words(x, out);
        }),
        _ => {}
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let words = vocabulary().clone();
    let word = prop::sample::select(words);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (0u32..20).prop_map(|n| json!(n)),
        any::<f64>().prop_filter("JSON numbers are finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        word.clone().prop_map(Value::String),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        let key = prop_oneof![3 => word.clone(), 1 => any::<String>()];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn input() -> impl Strategy<Value = Input> {
    let edit = prop_oneof![json_value().prop_map(Edit::Replace), Just(Edit::Remove), any::<u8>().prop_map(Edit::Huge),];
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(Input::Bytes),
        1 => json_value().prop_map(Input::Json),
        3 => (any::<usize>(), prop::collection::vec((any::<usize>(), edit), 0..4))
            .prop_map(|(pick, edits)| Input::Mutated { pick, edits }),
    ]
}

/// Numbers at and past the edges of every integer type the games use.
fn huge(n: u8) -> Value {
    match n % 8 {
        0 => json!(u64::MAX),
        1 => json!(i64::MIN),
        2 => json!(-1),
        3 => json!(u32::MAX as u64 + 1),
        4 => json!(1e300),
        5 => json!(u16::MAX as u64 + 1),
        6 => json!(256),
        _ => json!(-0.5),
    }
}

/// Every node of `v`, depth first, as a path of keys/indices.
fn paths(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(json!(i));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                here.push(json!(k));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn edit(v: &mut Value, path: &[Value], e: &Edit) {
    let Some((last, parent_path)) = path.split_last() else {
        if let Edit::Replace(r) = e {
            *v = r.clone();
        }
        return;
    };
    let mut parent = v;
    for p in parent_path {
        parent = match (parent, p) {
            (Value::Array(a), Value::Number(i)) => &mut a[i.as_u64().unwrap() as usize],
            (Value::Object(m), Value::String(k)) => m.get_mut(k).unwrap(),
            _ => unreachable!("paths come from the value"),
        };
    }
    match (parent, last, e) {
        (Value::Object(m), Value::String(k), Edit::Remove) => {
            m.remove(k);
        }
        (Value::Array(a), Value::Number(i), Edit::Remove) => {
            a.remove(i.as_u64().unwrap() as usize);
        }
        (Value::Object(m), Value::String(k), Edit::Replace(r)) => {
            m.insert(k.clone(), r.clone());
        }
        (Value::Array(a), Value::Number(i), Edit::Replace(r)) => a[i.as_u64().unwrap() as usize] = r.clone(),
        (Value::Object(m), Value::String(k), Edit::Huge(n)) => {
            m.insert(k.clone(), huge(*n));
        }
        (Value::Array(a), Value::Number(i), Edit::Huge(n)) => a[i.as_u64().unwrap() as usize] = huge(*n),
        _ => unreachable!("paths come from the value"),
    }
}

/// States along a random legal game, each with a seat the game waits for.
#[allow(clippy::type_complexity)]
fn walk<R: Ruleset>(options: &R::Options, seed: u64, steps: usize) -> (Vec<(R::State, Seat)>, R::State) {
    let mut rng = GameRng::from_seed(seed ^ 0xf022);
    let mut s = R::start(options, seed).expect("starts");
    let mut out = Vec::new();
    for _ in 0..steps {
        let Status::Waiting { seats } = R::status(&s) else { break };
        let seat = seats[rng.below(seats.len() as u32) as usize];
        out.push((s.clone(), seat));
        let legal = R::legal(&s, seat);
        if legal.is_empty() {
            break;
        }
        let listed = &legal[rng.below(legal.len() as u32) as usize];
        let a = R::as_sent(listed, &mut |n| rng.below(n as u32) as usize);
        R::apply(&mut s, seat, a).expect("a legal action applies");
    }
    (out, s)
}

/// What became of the inputs: (parsed as an action, refused, accepted).
type Tally = (usize, usize, usize);

/// Try `inputs` on the state at `at` of a random game; the properties hold.
fn fuzz<R: Ruleset>(options: &R::Options, seed: u64, at: usize, inputs: &[Input], seats: Seat) -> Tally {
    let mut tally = (0, 0, 0);
    let (states, last) = walk::<R>(options, seed, at + 1);
    let (mut state, seat) = match states.get(at) {
        Some(x) => x.clone(),
        None => (last, 0),
    };
    let legal: Vec<Value> = R::legal(&state, seat).iter().map(|a| serde_json::to_value(a).unwrap()).collect();
    for input in inputs {
        let action: Option<R::Action> = match input {
            Input::Bytes(b) => serde_json::from_slice(b).ok(),
            Input::Json(v) => serde_json::from_value(v.clone()).ok(),
            Input::Mutated { pick, edits } => {
                let Some(base) = (!legal.is_empty()).then(|| legal[pick % legal.len()].clone()) else { continue };
                let mut v = base;
                for (at, e) in edits {
                    let mut all = Vec::new();
                    paths(&v, &mut Vec::new(), &mut all);
                    let path = all[at % all.len()].clone();
                    edit(&mut v, &path, e);
                }
                serde_json::from_value(v).ok()
            }
        };
        let Some(action) = action else { continue };
        tally.0 += 1;
        for acting in [seat, (seat + 1) % seats] {
            let before = serde_json::to_string(&state).unwrap();
            match R::apply(&mut state, acting, action.clone()) {
                Err(e) => {
                    tally.1 += 1;
                    assert_eq!(before, serde_json::to_string(&state).unwrap(), "refused with {} but changed", e.code);
                    assert!(!e.code.is_empty());
                }
                Ok(_) => {
                    tally.2 += 1;
                    for v in (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                        serde_json::to_string(&R::view(&state, v)).unwrap();
                    }
                }
            }
        }
    }
    tally
}

fn divinity_options() -> DivinityOptions {
    DivinityOptions {
        party: vec!["ifan".into(), "sebille".into()],
        location: Some("tutorial".into()),
        ..DivinityOptions::default()
    }
}

fn cases() -> u32 {
    std::env::var("ATHLAS_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn duel_actions_from_the_wire_never_panic_and_refusals_change_nothing(
        seed in any::<u64>(), at in 0usize..120, inputs in prop::collection::vec(input(), 1..24),
    ) {
        fuzz::<Duel>(&DuelOptions::default(), seed, at, &inputs, 2);
    }

    #[test]
    fn divinity_actions_from_the_wire_never_panic_and_refusals_change_nothing(
        seed in any::<u64>(), at in 0usize..120, inputs in prop::collection::vec(input(), 1..24),
    ) {
        fuzz::<Divinity>(&divinity_options(), seed, at, &inputs, 2);
    }
}

/// The inputs reach the engine: many parse as actions, and of those some
/// are refused and some accepted (a fuzzer whose every input failed to
/// parse would prove nothing).
#[test]
fn the_fuzzer_reaches_the_rules() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let inputs = prop::collection::vec(input(), 40);
    let mut duel = (0, 0, 0);
    let mut divinity = (0, 0, 0);
    for seed in 0..16u64 {
        let batch = inputs.new_tree(&mut runner).unwrap().current();
        let add = |t: &mut Tally, u: Tally| *t = (t.0 + u.0, t.1 + u.1, t.2 + u.2);
        add(&mut duel, fuzz::<Duel>(&DuelOptions::default(), seed, (seed * 7) as usize, &batch, 2));
        add(&mut divinity, fuzz::<Divinity>(&divinity_options(), seed, (seed * 7) as usize, &batch, 2));
    }
    eprintln!("(parsed, refused, accepted): duel {duel:?}, divinity {divinity:?}");
    for (game, (parsed, refused, accepted)) in [("duel", duel), ("divinity", divinity)] {
        assert!(parsed >= 30 && refused > 0 && accepted > 0, "{game}: {parsed} {refused} {accepted}");
    }
}
