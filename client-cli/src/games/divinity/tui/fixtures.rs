//! Real Divinity frames for the tests: a match played by the engine itself
//! (`Divinity::start`, `apply`, `view`, `legal`), turned into the
//! `welcome`/`update` frames the server sends, so the screen is tested
//! against the engine's own shapes and never hand-written JSON.

use athlas_engine::divinity::{Divinity, DivinityAction, DivinityEvent, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use athlas_protocol::LegalFor;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;

pub struct Played {
    pub state: DivinityState,
    pub seq: u64,
    /// `control[s]`: the seat acting for `s`, as the server would send it.
    pub control: Option<Vec<Option<Seat>>>,
    rng: u64,
    /// The board key (`Ruleset::board_key`) of the last view each seat's
    /// receiver was sent: an update leaves the board and the front out
    /// when it is unchanged, as the server's does (tests may play several
    /// actions between two frames).
    keys_sent: RefCell<BTreeMap<Seat, Option<Vec<u8>>>>,
}

impl Played {
    pub fn new(party: &[&str], seed: u64) -> Played {
        let options = DivinityOptions { party: party.iter().map(|s| s.to_string()).collect(), ..Default::default() };
        let state = Divinity::start(&options, seed).expect("the default options start");
        Played {
            state,
            seq: 0,
            control: None,
            rng: seed.wrapping_mul(6364136223846793005).wrapping_add(1),
            keys_sent: RefCell::default(),
        }
    }

    pub fn waiting(&self) -> Vec<Seat> {
        match Divinity::status(&self.state) {
            Status::Waiting { seats } => seats,
            Status::Finished(_) => Vec::new(),
        }
    }

    /// The legal lists a receiver at `seat` gets: its own, and those of the
    /// seats handed to it.
    pub fn legal_for(&self, seat: Seat) -> Vec<LegalFor> {
        let mut seats = vec![seat];
        for (s, c) in self.control.iter().flatten().enumerate() {
            if *c == Some(seat) {
                seats.push(s as Seat);
            }
        }
        // A seat handed away acts no more itself.
        if self.control.as_ref().and_then(|c| c.get(seat as usize).copied().flatten()).is_some() {
            seats.retain(|s| *s != seat);
        }
        seats
            .into_iter()
            .map(|s| LegalFor {
                seat: s,
                actions: Divinity::legal(&self.state, s).iter().map(|a| serde_json::to_value(a).unwrap()).collect(),
                words: Vec::new(),
            })
            .filter(|l| !l.actions.is_empty())
            .collect()
    }

    fn status(&self) -> Value {
        serde_json::to_value(Divinity::status(&self.state)).unwrap()
    }

    fn view(&self, seat: Seat) -> Value {
        serde_json::to_value(Divinity::view(&self.state, Viewer::Seat(seat))).unwrap()
    }

    pub fn welcome(&self, seat: Seat) -> String {
        self.keys_sent.borrow_mut().insert(seat, Divinity::board_key(&self.state));
        let mut w = json!({"type":"welcome","protocol":1,"match_id":"m-div","game":"divinity","seat":seat,
            "seq":self.seq,"status":self.status(),"view":self.view(seat),"legal":self.legal_for(seat)});
        if let Some(c) = &self.control {
            w["control"] = json!(c);
        }
        w.to_string()
    }

    /// Whether `viewer`'s receiver has the board and the front of now (so
    /// its update leaves them out); they are its from now on.
    fn board_kept(&self, viewer: Seat) -> bool {
        let now = Divinity::board_key(&self.state);
        let sent = self.keys_sent.borrow_mut().insert(viewer, now.clone());
        now.is_some() && sent == Some(now)
    }

    /// The update a receiver at `viewer` gets after `actor` did something
    /// (sent by `sender` when another player acted for it): without the
    /// board and the front when the action left them as they were.
    pub fn update(&self, actor: Seat, events: &[DivinityEvent], viewer: Seat, sender: Option<Seat>) -> String {
        let view = if self.board_kept(viewer) {
            serde_json::to_value(Divinity::view_without_board(&self.state, Viewer::Seat(viewer))).unwrap()
        } else {
            self.view(viewer)
        };
        let mut u = json!({"type":"update","seq":self.seq,"seat":actor,"events":events,
            "status":self.status(),"view":view,"legal":self.legal_for(viewer)});
        if let Some(s) = sender {
            u["sender"] = json!(s);
        }
        if let Some(c) = &self.control {
            u["control"] = json!(c);
        }
        u.to_string()
    }

    /// Apply one action as the server would; panics on a refusal (the
    /// tests only send what `legal` listed).
    pub fn apply(&mut self, seat: Seat, action: DivinityAction) -> Vec<DivinityEvent> {
        let events = Divinity::apply(&mut self.state, seat, action).expect("a legal action is accepted");
        self.seq += 1;
        events
    }

    /// Play one pseudo-random legal action of the first waiting seat.
    pub fn step(&mut self) -> (Seat, Vec<DivinityEvent>) {
        let seat = *self.waiting().first().expect("the match goes on");
        let legal = Divinity::legal(&self.state, seat);
        self.rng = self.rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pick = (self.rng >> 33) as usize % legal.len();
        let events = self.apply(seat, legal[pick].clone());
        (seat, events)
    }

    /// Play pseudo-random legal actions (deterministic for the seed) until
    /// `done` holds; returns the last actor and its events.
    pub fn play_until(&mut self, done: impl Fn(&DivinityState) -> bool) -> (Seat, Vec<DivinityEvent>) {
        let mut last = (0, Vec::new());
        for _ in 0..5000 {
            if done(&self.state) {
                return last;
            }
            last = self.step();
        }
        panic!("the state was never reached");
    }
}
