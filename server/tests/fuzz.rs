//! The protocol fuzzer: a real server on a socket, many connections at
//! once (seats of two nim matches and a duel, a spectator, connections that
//! never joined), each sending random and mutated frames: valid envelopes
//! with random actions, truncated frames, wrong types, huge numbers,
//! unicode, deep nesting, binary and oversized frames.
//!
//! Every frame is answered by exactly one `pong`, `welcome`, `ack` or
//! `error`, and every error carries a documented code (PROTOCOL.md's table,
//! DUEL.md, the test game's own rule codes); no connection is closed; no
//! task of the server panics. Afterwards each nim match's view equals a
//! replay of the actions it acknowledged (nothing lost, nothing applied
//! twice, refusals changed nothing), and every match's view is the same
//! after a restart rebuilds it from the store.
//!
//! `cargo test` runs a short pass (`ATHLAS_FUZZ_CASES`, default 32 cases, about 2 s);
//! `ATHLAS_FUZZ_SECS=3600 cargo test -p athlas-server --test server fuzz:: -- --ignored --nocapture`
//! runs for as long as asked and prints what it sent and got.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{
        atomic::{AtomicUsize, Ordering},
        OnceLock,
    },
    time::{Duration, Instant},
};

use crate::common::{config, temp_dir, Client, Nim, NimAction, NimOptions, Server};
use athlas_engine::{Ruleset, Seat, Viewer};
use athlas_protocol::ClientMsg;
use futures_util::{SinkExt, StreamExt};
use proptest::prelude::*;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// Panics anywhere in this process (server tasks included: tokio catches
/// them, this hook still sees them).
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

/// Every error code the documents promise: PROTOCOL.md's table, every
/// code-like word of DUEL.md (its refusal codes), and the test game's.
fn documented_codes() -> &'static BTreeSet<String> {
    static CODES: OnceLock<BTreeSet<String>> = OnceLock::new();
    CODES.get_or_init(|| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../protocol/");
        let protocol = std::fs::read_to_string(format!("{root}PROTOCOL.md")).unwrap();
        let mut codes: BTreeSet<String> = protocol
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split_once('`').map(|(c, _)| c.to_owned()))
            .collect();
        assert!(codes.contains("bad_json") && codes.contains("hello_timeout"), "the table was read: {codes:?}");
        let duel = std::fs::read_to_string(format!("{root}DUEL.md")).unwrap();
        codes.extend(
            duel.split('`')
                .skip(1)
                .step_by(2)
                .filter(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                .map(str::to_owned),
        );
        // Nim's own rule codes (tests/common/mod.rs).
        codes.extend(["secret_locked", "setup", "bad_take"].map(str::to_owned));
        codes
    })
}

/// Words that make random actions look like real ones.
const WORDS: &[&str] = &[
    "type",
    "secret",
    "take",
    "value",
    "n",
    "end_turn",
    "summon",
    "activate",
    "move",
    "use_power",
    "cast_di",
    "create",
    "alphas",
    "cards",
    "use_preset",
    "preset",
    "to",
    "unit",
    "hex",
    "q",
    "r",
    "target",
    "card",
    "power",
    "pass",
    "accept_draw",
    "offer_draw",
    "resign",
    "di_stack",
    "figure",
    "carry_relic",
    "at",
];

#[derive(Debug, Clone)]
enum Token {
    /// The token of seat `n % 6` (two nim matches, one duel).
    Real(usize),
    Garbage(String),
}

#[derive(Debug, Clone)]
enum Frame {
    Act {
        id: u64,
        seat: Option<u64>,
        action: Value,
    },
    Hello {
        token: Token,
        last_seq: Option<u64>,
    },
    Watch {
        real: Option<usize>,
        garbage: String,
        last_seq: Option<u64>,
    },
    TakeBack {
        id: u64,
    },
    Hand {
        id: u64,
        seat: u64,
        to: Option<u64>,
    },
    Ping,
    /// A frame cut at a character.
    Truncated(Box<Frame>, usize),
    /// A frame with one key set to a value of any type.
    Retyped(Box<Frame>, String, Value),
    Deep(usize),
    Text(String),
    Binary(Vec<u8>),
    /// Over the frame limit (64 KiB), under the hard one.
    Oversized,
}

fn small_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..6).prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        Just(json!(1e300)),
        Just(json!(-0.0)),
        Just(Value::String("18446744073709551616".into())),
        prop::sample::select(WORDS).prop_map(|w| json!(w)),
        any::<String>().prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    small_value().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(WORDS).prop_map(str::to_owned), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn action() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => (0u32..4).prop_map(|v| json!({"type": "secret", "value": v})),
        6 => (0u64..5).prop_map(|n| json!({"type": "take", "n": n})),
        1 => any::<u64>().prop_map(|n| json!({"type": "take", "n": n})),
        2 => (prop::sample::select(WORDS), json_value()).prop_map(|(t, v)| json!({"type": t, "to": v, "unit": v})),
        1 => json_value(),
    ]
}

fn id() -> impl Strategy<Value = u64> {
    prop_oneof![4 => 0u64..1000, 1 => any::<u64>()]
}

fn base_frame() -> impl Strategy<Value = Frame> {
    let token = prop_oneof![
        3 => (0usize..6).prop_map(Token::Real),
        1 => any::<String>().prop_map(Token::Garbage),
    ];
    let last_seq = prop::option::of(prop_oneof![0u64..20, any::<u64>()]);
    prop_oneof![
        12 => (id(), prop::option::weighted(0.2, 0u64..3), action())
            .prop_map(|(id, seat, action)| Frame::Act { id, seat, action }),
        2 => (token, last_seq.clone()).prop_map(|(token, last_seq)| Frame::Hello { token, last_seq }),
        1 => (prop::option::of(0usize..3), any::<String>(), last_seq)
            .prop_map(|(real, garbage, last_seq)| Frame::Watch { real, garbage, last_seq }),
        1 => id().prop_map(|id| Frame::TakeBack { id }),
        1 => (id(), 0u64..3, prop::option::of(0u64..3)).prop_map(|(id, seat, to)| Frame::Hand { id, seat, to }),
        2 => Just(Frame::Ping),
    ]
}

fn frame() -> impl Strategy<Value = Frame> {
    prop_oneof![
        20 => base_frame(),
        3 => (base_frame(), any::<usize>()).prop_map(|(f, at)| Frame::Truncated(Box::new(f), at)),
        3 => (base_frame(), prop::sample::select(&["type", "id", "action", "seat", "token", "to", "last_seq", "protocol", "legal"][..]), json_value())
            .prop_map(|(f, k, v)| Frame::Retyped(Box::new(f), k.to_owned(), v)),
        1 => (1usize..2000).prop_map(Frame::Deep),
        1 => any::<String>().prop_map(Frame::Text),
        1 => prop::collection::vec(any::<u8>(), 0..40).prop_map(|b| Frame::Text(String::from_utf8_lossy(&b).into_owned())),
        1 => prop::collection::vec(any::<u8>(), 0..40).prop_map(Frame::Binary),
        1 => Just(Frame::Oversized),
    ]
}

/// The connections of a case: seats 0 and 1 of nim match 0, of nim match
/// 1, of the duel; a spectator of nim match 0; two that never joined.
const CONNECTIONS: usize = 9;

fn case() -> impl Strategy<Value = Vec<Vec<Frame>>> {
    prop::collection::vec(prop::collection::vec(frame(), 0..24), CONNECTIONS)
}

/// What the server was given: the matches' ids and tokens.
struct World {
    matches: Vec<String>,
    tokens: Vec<Value>,
}

impl World {
    fn json(&self, f: &Frame) -> Option<Value> {
        Some(match f {
            Frame::Act { id, seat, action } => {
                let mut m = json!({"type": "act", "id": id, "action": action});
                if let Some(s) = seat {
                    m["seat"] = json!(s);
                }
                m
            }
            Frame::Hello { token, last_seq } => {
                let token = match token {
                    Token::Real(i) => self.tokens[i % self.tokens.len()].clone(),
                    Token::Garbage(g) => json!(g),
                };
                json!({"type": "hello", "token": token, "last_seq": last_seq})
            }
            Frame::Watch { real, garbage, last_seq } => {
                let id = real.map_or_else(|| json!(garbage), |i| json!(self.matches[i % self.matches.len()]));
                json!({"type": "watch", "match_id": id, "last_seq": last_seq})
            }
            Frame::TakeBack { id } => json!({"type": "take_back", "id": id}),
            Frame::Hand { id, seat, to } => json!({"type": "hand", "id": id, "seat": seat, "to": to}),
            Frame::Ping => json!({"type": "ping"}),
            Frame::Retyped(inner, key, value) => {
                let mut v = self.json(inner)?;
                v[key.as_str()] = value.clone();
                v
            }
            _ => return None,
        })
    }

    fn message(&self, f: &Frame) -> Message {
        match f {
            Frame::Truncated(inner, at) => {
                let text = self.json(inner).map(|v| v.to_string()).unwrap_or_default();
                let mut cut = at % (text.len().max(1));
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                Message::Text(text[..cut].to_owned().into())
            }
            Frame::Deep(depth) => Message::Text(format!("{}{}", "[".repeat(*depth), "]".repeat(*depth)).into()),
            Frame::Text(t) => Message::Text(t.clone().into()),
            Frame::Binary(b) => Message::Binary(b.clone().into()),
            Frame::Oversized => Message::Text(format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(70 * 1024)).into()),
            other => Message::Text(self.json(other).expect("an envelope").to_string().into()),
        }
    }
}

/// An accepted record: (match, seq) → (seat acted for, action), or `None`
/// for a hand-over (no change to the game).
type Acked = BTreeMap<(String, u64), Option<(Seat, Value)>>;

#[derive(Default, Debug)]
struct Stats {
    frames: u64,
    answers: BTreeMap<String, u64>,
}

/// Send each frame and wait for its one answer; check it; note what was acked.
async fn drive(
    world: &World,
    c: &mut Client,
    frames: &[Frame],
    mut joined: Option<(String, Option<Seat>)>,
) -> (Acked, Stats) {
    let mut acked = Acked::new();
    let mut stats = Stats::default();
    for f in frames {
        let msg = world.message(f);
        let sent = match &msg {
            Message::Text(t) => Some(t.to_string()),
            _ => None,
        };
        c.ws.send(msg).await.expect("the server closed the connection");
        stats.frames += 1;
        let answer = loop {
            let next = tokio::time::timeout(Duration::from_secs(60), c.ws.next()).await.expect("no answer in 60 s");
            match next {
                Some(Ok(Message::Text(t))) => {
                    let m: Value = serde_json::from_str(t.as_str()).expect("the server sends JSON");
                    if ["pong", "welcome", "ack", "error"].contains(&m["type"].as_str().unwrap_or("")) {
                        break m;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                    panic!("the server closed a connection after {f:?}")
                }
                Some(Ok(_)) => {}
            }
        };
        let parsed = sent.as_deref().and_then(|t| serde_json::from_str::<ClientMsg>(t).ok());
        let kind = answer["type"].as_str().unwrap().to_owned();
        match kind.as_str() {
            "error" => {
                let code = answer["code"].as_str().expect("an error has a code");
                assert!(documented_codes().contains(code), "undocumented code {code}: {answer} for {f:?}");
                assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{answer}");
                assert!(!["lagged", "shutting_down", "hello_timeout"].contains(&code), "{answer}");
                if let Some(ClientMsg::Act { id, .. } | ClientMsg::TakeBack { id } | ClientMsg::Hand { id, .. }) =
                    &parsed
                {
                    assert_eq!(answer["id"], json!(id), "an act's error carries its id");
                }
                *stats.answers.entry(code.to_owned()).or_default() += 1;
            }
            "ack" => {
                let (match_id, seat) = joined.clone().expect("acked on a joined connection");
                let seq = answer["seq"].as_u64().unwrap();
                let record = match parsed.expect("only a well-formed frame is acked") {
                    ClientMsg::Act { id, action, seat: for_seat } => {
                        assert_eq!(answer["id"], id);
                        Some((for_seat.unwrap_or(seat.expect("a seat acts")), action))
                    }
                    ClientMsg::Hand { id, .. } => {
                        assert_eq!(answer["id"], id);
                        None
                    }
                    other => panic!("acked {other:?}"),
                };
                assert!(acked.insert((match_id, seq), record).is_none(), "seq {seq} acked twice");
                *stats.answers.entry(kind).or_default() += 1;
            }
            "welcome" => {
                assert!(joined.is_none(), "a second welcome on one connection");
                let seat = answer["seat"].as_u64().map(|s| s as Seat);
                joined = Some((answer["match_id"].as_str().unwrap().to_owned(), seat));
                *stats.answers.entry(kind).or_default() += 1;
            }
            _ => *stats.answers.entry(kind).or_default() += 1,
        }
    }
    (acked, stats)
}

/// A spectator's welcome: (seq, view).
async fn watch(server: &Server, match_id: &str) -> (u64, Value) {
    let mut c = server.ws().await;
    c.send(json!({"type": "watch", "match_id": match_id})).await;
    let w = c.recv().await;
    assert_eq!(w["type"], "welcome", "{w}");
    (w["seq"].as_u64().unwrap(), w["view"].clone())
}

const PILE: u32 = 12;

/// One case on a fresh server: returns what it sent and got.
async fn run_case(frames: &[Vec<Frame>]) -> Stats {
    count_panics();
    let panics_before = PANICS.load(Ordering::SeqCst);
    let dir = temp_dir("fuzz");
    // Nothing here may be closed for idling between frames.
    let cfg = athlas_server::Config { hello_timeout_secs: 3600, ..config(&dir) };
    let server = Server::start(cfg.clone()).await;
    let mut matches = Vec::new();
    let mut tokens = Vec::new();
    for (game, options) in [("nim", json!({"pile": PILE})), ("nim", json!({"pile": PILE})), ("duel", json!({}))] {
        let created = server.create(game, options).await;
        let joined = server.join(created["join_code"].as_str().unwrap()).await;
        matches.push(created["match_id"].as_str().unwrap().to_owned());
        tokens.extend([created["token"].clone(), joined["token"].clone()]);
    }
    let world = World { matches, tokens };
    let mut clients = Vec::new();
    let mut joined = Vec::new();
    for i in 0..CONNECTIONS {
        let mut c = server.ws().await;
        let j = match i {
            0..=5 => {
                let w = c.hello(&world.tokens[i], None).await;
                Some((world.matches[i / 2].clone(), w["seat"].as_u64().map(|s| s as Seat)))
            }
            6 => {
                c.send(json!({"type": "watch", "match_id": world.matches[0]})).await;
                assert_eq!(c.recv().await["type"], "welcome");
                Some((world.matches[0].clone(), None))
            }
            _ => None,
        };
        clients.push(c);
        joined.push(j);
    }
    let runs = clients.iter_mut().zip(frames).zip(joined).map(|((c, f), j)| drive(&world, c, f, j));
    let results = futures_util::future::join_all(runs).await;
    let mut acked = Acked::new();
    let mut stats = Stats::default();
    for (a, s) in results {
        for (k, v) in a {
            assert!(acked.insert(k.clone(), v).is_none(), "{k:?} acked twice");
        }
        stats.frames += s.frames;
        for (code, n) in s.answers {
            *stats.answers.entry(code).or_default() += n;
        }
    }
    // Every connection is still served.
    for c in &mut clients {
        c.ping_pong().await;
    }
    drop(clients);

    // Each nim match is the replay of what it acknowledged, seq by seq.
    let mut views = Vec::new();
    for (i, match_id) in world.matches.iter().enumerate() {
        let (seq, view) = watch(&server, match_id).await;
        let records: Vec<_> = acked.range((match_id.clone(), 0)..=(match_id.clone(), u64::MAX)).collect();
        let seqs: Vec<u64> = records.iter().map(|((_, s), _)| *s).collect();
        assert_eq!(seqs, (1..=seq).collect::<Vec<_>>(), "every record of match {i} was acked once, none lost");
        if i < 2 {
            let mut state = Nim::start(&NimOptions { pile: PILE }, 0).unwrap();
            for ((_, s), r) in &records {
                if let Some((seat, action)) = r {
                    let a: NimAction = serde_json::from_value(action.clone()).unwrap();
                    Nim::apply(&mut state, *seat, a)
                        .unwrap_or_else(|e| panic!("acked seq {s} does not replay: {}", e.code));
                }
            }
            assert_eq!(view, serde_json::to_value(Nim::view(&state, Viewer::Spectator)).unwrap(), "match {i}");
        }
        views.push((seq, view));
    }
    server.stop().await;
    // The store's log rebuilds the same matches.
    let server = Server::start(cfg).await;
    for (match_id, before) in world.matches.iter().zip(&views) {
        assert_eq!(&watch(&server, match_id).await, before, "after a restart");
    }
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(PANICS.load(Ordering::SeqCst), panics_before, "a panic in the server");
    stats
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn cases() -> u32 {
    std::env::var("ATHLAS_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(32)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_and_mutated_frames_get_coded_answers_and_games_equal_their_replay(frames in case()) {
        runtime().block_on(run_case(&frames));
    }
}

/// The long run: `ATHLAS_FUZZ_SECS` seconds (default 60) of cases, then a
/// summary (frames, answers by type and error code, panics, RSS).
#[test]
#[ignore = "long: run with ATHLAS_FUZZ_SECS and --ignored"]
fn fuzz_for_a_while() {
    use proptest::strategy::ValueTree;
    let secs: u64 = std::env::var("ATHLAS_FUZZ_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let rss = || athlas_server::process::resident_bytes().unwrap_or(0) / 1024;
    let rss_start = rss();
    let mut runner = proptest::test_runner::TestRunner::default();
    let rt = runtime();
    let start = Instant::now();
    let mut total = Stats::default();
    let mut n = 0;
    while start.elapsed() < Duration::from_secs(secs) {
        let frames = case().new_tree(&mut runner).unwrap().current();
        let s = rt.block_on(run_case(&frames));
        total.frames += s.frames;
        for (k, v) in s.answers {
            *total.answers.entry(k).or_default() += v;
        }
        n += 1;
    }
    println!(
        "{n} cases, {} frames in {:?}; answers {:?}; panics {}; divergences 0; RSS {} KiB at start, {} KiB at end",
        total.frames,
        start.elapsed(),
        total.answers,
        PANICS.load(Ordering::SeqCst),
        rss_start,
        rss()
    );
}
