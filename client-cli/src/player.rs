//! One seat's side of the conversation, without the socket: it reads the
//! server's frames, keeps the few things a scripted or bot player needs
//! (whose turn, what is legal, the act in flight) and writes `act` frames.
//!
//! Only the fields it uses are parsed; the rest of each frame (the board,
//! the players) is skipped, which keeps per-action work small under load.
//!
//! What is legal comes from the frame's `legal` list (one entry per seat
//! this receiver acts for: its own and any seat handed to it), or, for a
//! server that lists it only in the duel's view, from `view.legal`.

use std::{
    borrow::Cow,
    time::{Duration, Instant},
};

use athlas_protocol::Seat;
use serde::{Deserialize, Serialize};
use serde_json::{value::RawValue, Value};

/// One legal action as the server wrote it, kept as its JSON text: a bot
/// reads only the `type` of most of them ([`kind_of`]) and sends one back,
/// so none is built into a `Value` tree (that was a tenth of the load
/// generator's work per frame).
pub type Legal = Box<RawValue>;

/// The `type` of a legal action (empty when it has none or is no object).
/// A bot reads it of every listed action at each pick: the usual plain
/// string is found by a scan, anything else is parsed ([`kind_parsed`]).
pub fn kind_of(action: &RawValue) -> Cow<'_, str> {
    match crate::skim::plain_str_member(action.get(), "type") {
        Some(kind) => Cow::Borrowed(kind.unwrap_or("")),
        None => kind_parsed(action),
    }
}

/// [`kind_of`] by serde.
fn kind_parsed(action: &RawValue) -> Cow<'_, str> {
    #[derive(Deserialize)]
    struct Kind<'a> {
        #[serde(borrow, rename = "type", default)]
        kind: Cow<'a, str>,
    }
    serde_json::from_str::<Kind>(action.get()).map_or(Cow::Borrowed(""), |k| k.kind)
}

/// A legal action as a JSON value (for the bots that read one whole).
pub fn legal_value(action: &RawValue) -> Value {
    serde_json::from_str(action.get()).expect("raw JSON from a parsed frame reads back")
}

/// A frame's `legal` entry ([`athlas_protocol::LegalFor`]) with its
/// actions kept as text.
#[derive(Debug, Clone, Deserialize)]
pub struct LegalList {
    pub seat: Seat,
    /// Absent for a game whose view lists its legal actions (the duel,
    /// whose entries carry only `words`): the view's list counts then.
    #[serde(default)]
    pub actions: Vec<Legal>,
}

#[derive(Debug, Default, Deserialize)]
struct StatusLite {
    #[serde(default)]
    status: String,
    #[serde(default)]
    seats: Vec<Seat>,
}

#[derive(Debug, Default, Deserialize)]
struct PhaseLite {
    #[serde(default)]
    phase: String,
}

#[derive(Debug, Default, Deserialize)]
struct ViewLite {
    #[serde(default)]
    phase: Option<PhaseLite>,
    #[serde(default)]
    waiting_for: Option<Vec<Seat>>,
    #[serde(default)]
    legal: Vec<Legal>,
}

/// The members of a frame [`FrameLite`] reads, of its view [`ViewLite`]
/// and of its `legal` entries [`LegalList`]: everything else is left out
/// before parsing ([`crate::skim`]). A field added to any of them must be
/// added here.
const READ: crate::skim::Keep = crate::skim::Keep {
    top: &[
        "type",
        "seq",
        "id",
        "seat",
        "sender",
        "legal",
        "campaign_id",
        "control",
        "code",
        "message",
        "status",
        "view",
        "resumes_to",
    ],
    view: &["phase", "waiting_for", "legal"],
    entry: &["seat", "actions"],
};

#[derive(Debug, Deserialize)]
struct FrameLite {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    seat: Option<Seat>,
    /// `update`: the player who sent it, when it acted for a handed seat.
    #[serde(default)]
    sender: Option<Seat>,
    /// `welcome` of a resume: the seq the missed updates after it reach.
    #[serde(default)]
    resumes_to: Option<u64>,
    #[serde(default)]
    legal: Vec<LegalList>,
    #[serde(default)]
    campaign_id: Option<String>,
    /// Who controls each seat, while any seat is handed.
    #[serde(default)]
    control: Option<Vec<Option<Seat>>>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    status: Option<StatusLite>,
    #[serde(default)]
    view: Option<ViewLite>,
}

/// An `ack` as the server writes it (`{"type":"ack","id":N,"seq":M}`, as
/// `athlas_protocol::ServerMsg::Ack` is written): its `id` and `seq`, read
/// without a parser (one comes for every action). `None` for anything
/// else, which is parsed.
pub(crate) fn plain_ack(text: &str) -> Option<(u64, u64)> {
    let rest = text.strip_prefix(r#"{"type":"ack","id":"#)?;
    let (id, rest) = plain_u64(rest)?;
    let (seq, rest) = plain_u64(rest.strip_prefix(r#","seq":"#)?)?;
    (rest == "}").then_some((id, seq))
}

/// The whole number JSON writes at the start of `text` (digits, no leading
/// zero, not followed by a fraction or an exponent) as a `u64`, and the
/// text after it.
pub(crate) fn plain_u64(text: &str) -> Option<(u64, &str)> {
    let n = text.bytes().take_while(u8::is_ascii_digit).count();
    let (digits, rest) = text.split_at(n);
    if n == 0 || (n > 1 && digits.starts_with('0')) || rest.starts_with(['.', 'e', 'E']) {
        return None;
    }
    Some((digits.parse().ok()?, rest))
}

/// An `act` sent and not yet answered.
#[derive(Debug, Clone)]
pub struct InFlight {
    pub id: u64,
    /// The frame as sent, to send again after a `rate_limited`.
    pub frame: String,
    pub sent_at: Instant,
    /// The match's `seq` when it was sent: an update by this seat after it
    /// means it was applied even if its `ack` was lost with a connection.
    pub seq_at_send: Option<u64>,
}

/// What one frame meant to the player.
#[derive(Debug, Clone, PartialEq)]
pub enum Observed {
    /// `welcome`: the seat (if any) and the seq.
    Welcome,
    /// `update` of the match.
    Update,
    /// The act in flight was accepted.
    Acked { id: u64, seq: u64, latency: Duration },
    /// Something was refused. `id` is the act it answers, if any.
    Rejected { id: Option<u64>, code: String, message: String },
    /// The server dropped a frame for the rate limit: send it again later.
    RateLimited,
    /// Anything else (commitment, reveal, seed, pong, or not JSON).
    Other,
}

/// A seat's bookkeeping.
#[derive(Debug, Default)]
pub struct Player {
    pub seat: Option<Seat>,
    /// The last `seq` of a `welcome`/`update`.
    pub seq: Option<u64>,
    pub phase: String,
    /// Seats the game waits for.
    pub waiting: Vec<Seat>,
    /// The view's `legal` list (the duel's); see [`Player::legal`].
    view_legal: Vec<Legal>,
    /// The frame's `legal`: every seat this receiver may act for now (its
    /// own and handed ones) with their actions.
    pub legal_for: Vec<LegalList>,
    /// The campaign the match belongs to (from `welcome`).
    pub campaign_id: Option<String>,
    /// The last frame said who controls each seat (some seat is handed).
    pub handed: bool,
    pub finished: bool,
    pub welcomed: bool,
    pub in_flight: Option<InFlight>,
    /// The `seq` of the last ack: the view is stale until an update reaches it.
    acked_seq: Option<u64>,
    /// A resume's welcome is history until the updates after it reach this.
    resumes_to: Option<u64>,
    /// The `seq` of the last update caused by this seat.
    last_own_update: Option<u64>,
    next_id: u64,
}

impl Player {
    pub fn new() -> Player {
        Player { next_id: 1, ..Player::default() }
    }

    fn take_state(
        &mut self,
        status: Option<StatusLite>,
        view: Option<ViewLite>,
        legal: Vec<LegalList>,
        control: Option<Vec<Option<Seat>>>,
    ) {
        self.handed = control.is_some_and(|c| c.iter().any(Option::is_some));
        let status = status.unwrap_or_default();
        self.finished = status.status == "finished";
        let view = view.unwrap_or_default();
        if let Some(p) = view.phase {
            self.phase = p.phase;
        }
        self.waiting = view.waiting_for.unwrap_or(status.seats);
        if self.finished {
            self.waiting.clear();
        }
        self.legal_for = legal.into_iter().filter(|l| !l.actions.is_empty()).collect();
        if self.finished {
            self.legal_for.clear();
        }
        self.view_legal = view.legal;
    }

    /// What this seat may do now: the frame's `legal` entry of this seat,
    /// else `view.legal` (the duel's view lists it too). Found when asked,
    /// not copied per frame: a Divinity seat's entry runs to a thousand
    /// actions.
    pub fn legal(&self) -> &[Legal] {
        match self.legal_for.iter().find(|l| Some(l.seat) == self.seat) {
            Some(own) => &own.actions,
            None => &self.view_legal,
        }
    }

    /// Read one server frame.
    pub fn observe(&mut self, text: &str) -> Observed {
        if let Some((id, seq)) = plain_ack(text) {
            return self.acked(id, seq);
        }
        let Ok(f) = serde_json::from_str::<FrameLite>(&crate::skim::skim(text, &READ)) else {
            return Observed::Other;
        };
        match f.kind.as_str() {
            "welcome" => {
                self.welcomed = true;
                self.seat = f.seat;
                self.seq = f.seq;
                self.resumes_to = f.resumes_to;
                self.campaign_id = f.campaign_id;
                self.take_state(f.status, f.view, f.legal, f.control);
                Observed::Welcome
            }
            "update" => {
                self.seq = f.seq;
                // Sent by this seat: for itself, or for a seat handed to it.
                let by_me = match f.sender {
                    Some(sender) => Some(sender) == self.seat,
                    None => f.seat.is_some() && f.seat == self.seat,
                };
                if by_me {
                    self.last_own_update = f.seq;
                }
                self.take_state(f.status, f.view, f.legal, f.control);
                Observed::Update
            }
            "ack" => self.acked(f.id.unwrap_or(0), f.seq.unwrap_or(0)),
            "error" => {
                let code = f.code.unwrap_or_default();
                // Dropped, not refused: the act in flight is sent again
                // (the server names its id, or none for other frames).
                if code == athlas_protocol::code::RATE_LIMITED {
                    return Observed::RateLimited;
                }
                if f.id.is_some() && self.in_flight.as_ref().map(|i| i.id) == f.id {
                    self.in_flight = None;
                }
                Observed::Rejected { id: f.id, code, message: f.message.unwrap_or_default() }
            }
            _ => Observed::Other,
        }
    }

    fn acked(&mut self, id: u64, seq: u64) -> Observed {
        match self.in_flight.take_if(|i| i.id == id) {
            Some(i) => {
                self.acked_seq = Some(seq);
                Observed::Acked { id, seq, latency: i.sent_at.elapsed() }
            }
            None => Observed::Other,
        }
    }

    /// Whether the view is up to date with this seat's last accepted act.
    pub fn view_is_current(&self) -> bool {
        if self.resumes_to.is_some_and(|to| self.seq.is_none_or(|s| s < to)) {
            return false; // a resume's missed updates are still coming
        }
        match (self.acked_seq, self.seq) {
            (None, _) => true,
            (Some(a), Some(s)) => s >= a,
            (Some(_), None) => false,
        }
    }

    /// The game waits for this seat, nothing is in flight and the view is current.
    pub fn my_turn(&self) -> bool {
        self.welcomed
            && !self.finished
            && self.in_flight.is_none()
            && self.view_is_current()
            && self.seat.is_some_and(|s| self.waiting.contains(&s))
    }

    /// The seats this receiver may act for now, each with what it may do:
    /// the frame's `legal` list, else its own seat with `view.legal` while
    /// the game waits for it. Empty while an act is in flight or the view
    /// is older than the last ack.
    pub fn actionable(&self) -> Vec<(Seat, &[Legal])> {
        if !self.welcomed || self.finished || self.in_flight.is_some() || !self.view_is_current() {
            return Vec::new();
        }
        if !self.legal_for.is_empty() {
            return self.legal_for.iter().map(|l| (l.seat, l.actions.as_slice())).collect();
        }
        match self.seat {
            Some(s) if self.waiting.contains(&s) => vec![(s, self.legal())],
            _ => Vec::new(),
        }
    }

    /// The game waits for this seat, no seat is handed, the view is current,
    /// and yet the frame lists no legal action for anyone: the server sends
    /// no `legal` lists (older than campaigns), so a player that picks only
    /// from them cannot play here.
    pub fn no_legal_lists(&self) -> bool {
        self.my_turn() && !self.handed && self.legal_for.is_empty()
    }

    /// An `act` frame for `action`, recorded as in flight.
    pub fn act(&mut self, action: &(impl Serialize + ?Sized)) -> String {
        self.act_for(None, action)
    }

    /// An `act` frame for `action` (a `Value`, or a [`Legal`] as listed) on
    /// behalf of `seat` (a seat handed to this one; `None` or this
    /// receiver's own seat: no `seat` field).
    pub fn act_for(&mut self, seat: Option<Seat>, action: &(impl Serialize + ?Sized)) -> String {
        #[derive(Serialize)]
        struct Act<'a, A: ?Sized> {
            #[serde(rename = "type")]
            kind: &'static str,
            id: u64,
            action: &'a A,
            #[serde(skip_serializing_if = "Option::is_none")]
            seat: Option<Seat>,
        }
        let id = self.next_id;
        self.next_id += 1;
        let seat = seat.filter(|s| Some(*s) != self.seat);
        let frame = serde_json::to_string(&Act { kind: "act", id, action, seat }).expect("an act serializes");
        self.in_flight = Some(InFlight { id, frame: frame.clone(), sent_at: Instant::now(), seq_at_send: self.seq });
        frame
    }

    /// A full frame from a script: an `act` keeps its `id` (or gets one) and
    /// is recorded as in flight; other frames go out as they are.
    pub fn frame(&mut self, mut frame: Value) -> String {
        if frame.get("type").and_then(Value::as_str) != Some("act") {
            return frame.to_string();
        }
        let id = match frame.get("id").and_then(Value::as_u64) {
            Some(id) => id,
            None => {
                let id = self.next_id;
                frame["id"] = id.into();
                id
            }
        };
        self.next_id = self.next_id.max(id + 1);
        let text = frame.to_string();
        self.in_flight = Some(InFlight { id, frame: text.clone(), sent_at: Instant::now(), seq_at_send: self.seq });
        text
    }

    /// After a reconnect (and the frames it replayed): was the act in flight
    /// applied before the connection dropped? If so it is settled and `true`
    /// is returned; otherwise it stays in flight, to be sent again.
    pub fn settle_after_reconnect(&mut self) -> bool {
        let Some(i) = &self.in_flight else {
            return false;
        };
        let applied = match (self.last_own_update, i.seq_at_send) {
            (Some(u), Some(s)) => u > s,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if applied {
            self.in_flight = None;
        }
        applied
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values(legal: &[Legal]) -> Vec<Value> {
        legal.iter().map(|a| legal_value(a)).collect()
    }

    fn welcome(seat: Seat, seq: u64, waiting: &[Seat]) -> String {
        json!({"type":"welcome","protocol":1,"match_id":"m","game":"duel","seat":seat,"seq":seq,
               "status":{"status":"waiting","seats":waiting},
               "view":{"phase":{"phase":"command"},"waiting_for":waiting,"legal":[{"type":"end_turn"}],"hexes":[]}})
        .to_string()
    }

    fn update(seat: Seat, seq: u64, waiting: &[Seat]) -> String {
        json!({"type":"update","seq":seq,"seat":seat,"events":[],
               "status":{"status":"waiting","seats":waiting},
               "view":{"phase":{"phase":"command"},"waiting_for":waiting,"legal":[{"type":"pass"}]}})
        .to_string()
    }

    /// Skimming a frame before parsing it changes nothing a player reads:
    /// over the welcomes and updates of random duels, as both seats and a
    /// spectator see them, the skimmed parse equals the whole one (a field
    /// read but missing from `READ` fails here), whether the view's
    /// members are found from its start (keys sorted) or from both ends
    /// (the server's order).
    #[test]
    fn a_skimmed_frame_reads_as_the_whole_one() {
        use athlas_engine::duel::{bot::RandomBot, card::Catalogue, Duel, DuelOptions};
        use athlas_engine::{Ruleset, Viewer};
        use athlas_protocol::{LegalFor, ServerMsg};
        let cat = Catalogue::standard();
        let mut frames = 0;
        for seed in 0..6u64 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = RandomBot::new(seed);
            for seq in 0..150u64 {
                for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
                    // As the server writes it (its own order: the legal list
                    // last), and as a JSON value (keys sorted: `legal` first).
                    let written = serde_json::to_string(&Duel::view(&s, viewer)).unwrap();
                    let view: Value = serde_json::from_str(&written).unwrap();
                    let status = serde_json::to_value(Duel::status(&s)).unwrap();
                    let seat = match viewer {
                        Viewer::Seat(v) => Some(v),
                        Viewer::Spectator => None,
                    };
                    let legal = seat
                        .map(|v| LegalFor {
                            seat: v,
                            actions: vec![json!({"type": "offer_draw", "why": "a long enough legal entry"})],
                            words: Vec::new(),
                        })
                        .into_iter()
                        .collect();
                    let events = vec![json!({"event": "turn_begins", "seat": 0, "turn": seq})];
                    let server_order = format!(
                        r#"{{"type":"update","seq":{seq},"seat":1,"events":{},"log":["Turn \"{seq}\""],"status":{status},"view":{written},"timer_ms":900,"sender":0,"legal":{},"control":[null,0]}}"#,
                        json!(events),
                        json!(legal)
                    );
                    for text in [
                        ServerMsg::Welcome {
                            protocol: 1,
                            match_id: "m".into(),
                            game: "duel".into(),
                            seat,
                            seq,
                            status: status.clone(),
                            view: view.clone(),
                            timer_ms: Some(900),
                            legal: Vec::new(),
                            control: None,
                            campaign_id: Some("c".into()),
                            log: Vec::new(),
                            names: Vec::new(),
                            resumes_to: None,
                        },
                        ServerMsg::Update {
                            seq,
                            seat: 1,
                            events,
                            log: Vec::new(),
                            status,
                            view,
                            timer_ms: None,
                            sender: Some(0),
                            taken_back: None,
                            legal,
                            control: Some(vec![None, Some(0)]),
                        },
                    ]
                    .map(|msg| serde_json::to_string(&msg).unwrap())
                    .into_iter()
                    .chain([server_order])
                    {
                        let skimmed = crate::skim::skim(&text, &READ);
                        assert!(skimmed.len() < text.len(), "something unread is cut");
                        let whole: FrameLite = serde_json::from_str(&text).unwrap();
                        let read: FrameLite = serde_json::from_str(&skimmed).unwrap();
                        assert_eq!(format!("{read:?}"), format!("{whole:?}"));
                        frames += 1;
                    }
                }
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                Duel::apply(&mut s, seat, a).unwrap();
            }
        }
        assert!(frames > 1000, "{frames} frames compared");
    }

    #[test]
    fn acts_only_on_its_turn_with_a_current_view() {
        let mut p = Player::new();
        assert!(!p.my_turn());
        assert_eq!(p.observe(&welcome(0, 3, &[0])), Observed::Welcome);
        assert!(p.my_turn());
        assert_eq!(p.phase, "command");
        let frame: Value = serde_json::from_str(&p.act(&json!({"type":"end_turn"}))).unwrap();
        assert_eq!(frame["id"], 1);
        assert!(!p.my_turn(), "an act is in flight");
        let o = p.observe(r#"{"type":"ack","id":1,"seq":4}"#);
        assert!(matches!(o, Observed::Acked { id: 1, seq: 4, .. }));
        assert!(!p.my_turn(), "the view is older than the ack");
        p.observe(&update(0, 4, &[0]));
        assert!(p.my_turn());
        assert_eq!(values(p.legal()), vec![json!({"type":"pass"})]);
    }

    /// An ack read off its text is the ack parsed; anything else written
    /// differently is left to the parser.
    #[test]
    fn a_plain_ack_reads_as_the_parsed_one() {
        let parsed = |text: &str| {
            let f: FrameLite = serde_json::from_str(text).ok()?;
            (f.kind == "ack").then(|| (f.id.unwrap_or(0), f.seq.unwrap_or(0)))
        };
        let written = serde_json::to_string(&athlas_protocol::ServerMsg::Ack { id: 12, seq: u64::MAX }).unwrap();
        for text in [written.as_str(), r#"{"type":"ack","id":0,"seq":10}"#] {
            assert!(plain_ack(text).is_some(), "{text}");
            assert_eq!(plain_ack(text), parsed(text), "{text}");
        }
        for text in [
            r#"{"type":"ack","id":07,"seq":1}"#,
            r#"{"type":"ack","id":1,"seq":1.0}"#,
            r#"{"type":"ack","id":1,"seq":1e2}"#,
            r#"{"type":"ack","id":1,"seq":18446744073709551616}"#,
            r#"{"type":"ack","id":1,"seq":2,"x":3}"#,
            r#"{"type":"ack","id":1,"seq":2} "#,
            r#"{"type":"ack","id":-1,"seq":2}"#,
            r#"{"type":"ack", "id":1,"seq":2}"#,
        ] {
            assert_eq!(plain_ack(text), None, "{text}");
        }
        // Acked once, and only the act in flight.
        let mut p = Player::new();
        p.observe(&welcome(0, 3, &[0]));
        p.act(&json!({"type":"end_turn"}));
        assert_eq!(p.observe(r#"{"type":"ack","id":2,"seq":4}"#), Observed::Other);
        assert!(matches!(p.observe(r#"{"type":"ack","id":1,"seq":4}"#), Observed::Acked { id: 1, seq: 4, .. }));
        assert_eq!(p.observe(r#"{"type":"ack","id":1,"seq":4}"#), Observed::Other);
    }

    #[test]
    fn errors_clear_the_act_and_rate_limits_keep_it() {
        let mut p = Player::new();
        p.observe(&welcome(1, 0, &[1]));
        p.act(&json!({"type":"pass"}));
        assert_eq!(p.observe(r#"{"type":"error","code":"rate_limited","message":"slow"}"#), Observed::RateLimited);
        assert!(p.in_flight.is_some());
        let o = p.observe(r#"{"type":"error","id":1,"code":"not_your_turn","message":"no"}"#);
        assert_eq!(o, Observed::Rejected { id: Some(1), code: "not_your_turn".into(), message: "no".into() });
        assert!(p.in_flight.is_none());
    }

    /// The duel's frames list its legal actions in the view and give the
    /// frame's `legal` entries only their words: such an entry is read, and
    /// the view's list is what the seat may do (the load generator acked
    /// nothing when an entry without `actions` failed the whole frame).
    #[test]
    fn a_legal_entry_with_words_only_leaves_the_view_list() {
        let mut p = Player::new();
        let frame = json!({"type":"welcome","protocol":1,"match_id":"m","game":"duel","seat":0,"seq":3,
               "status":{"status":"waiting","seats":[0]},
               "legal":[{"seat":0,"words":[{"text":"End the turn","group":"turn"}]}],
               "view":{"phase":{"phase":"command"},"waiting_for":[0],"legal":[{"type":"end_turn"}],"hexes":[]}});
        p.observe(&frame.to_string());
        assert!(p.my_turn());
        let acts = p.actionable();
        assert_eq!(acts.len(), 1);
        assert_eq!(values(acts[0].1), vec![json!({"type":"end_turn"})]);
    }

    #[test]
    fn finished_games_wait_for_no_one() {
        let mut p = Player::new();
        p.observe(&welcome(0, 0, &[0]));
        p.observe(r#"{"type":"update","seq":1,"seat":1,"events":[],"status":{"status":"finished","result":"draw"},"view":{"waiting_for":[],"legal":[]}}"#);
        assert!(p.finished);
        assert!(!p.my_turn());
    }

    #[test]
    fn a_lost_ack_is_settled_by_the_replayed_update() {
        let mut p = Player::new();
        p.observe(&welcome(0, 5, &[0]));
        p.act(&json!({"type":"end_turn"}));
        // The connection dropped; the resume replays seq 6, made by seat 0.
        p.observe(&welcome(0, 5, &[0]));
        assert!(!p.settle_after_reconnect());
        p.observe(&update(0, 6, &[1]));
        assert!(p.settle_after_reconnect());
        assert!(p.in_flight.is_none());
    }

    #[test]
    fn the_frame_legal_list_names_every_seat_to_act_for() {
        let mut p = Player::new();
        let w = json!({"type":"welcome","protocol":1,"match_id":"m","game":"divinity","seat":1,"seq":2,
            "campaign_id":"c1","status":{"status":"waiting","seats":[0,1]},
            "view":{"phase":{"phase":"travel"},"waiting":[0,1]},
            "legal":[{"seat":1,"actions":[{"type":"travel","to":"2"}]},{"seat":0,"actions":[{"type":"pass"}]}]});
        p.observe(&w.to_string());
        assert_eq!(p.campaign_id.as_deref(), Some("c1"));
        assert_eq!(values(p.legal()), vec![json!({"type":"travel","to":"2"})], "its own seat's entry");
        let seats: Vec<Seat> = p.actionable().iter().map(|(s, _)| *s).collect();
        assert_eq!(seats, [1, 0]);
        let frame: Value = serde_json::from_str(&p.act_for(Some(0), &json!({"type":"pass"}))).unwrap();
        assert_eq!(frame["seat"], 0, "acting for a handed seat names it");
        assert!(p.actionable().is_empty(), "an act is in flight");
        p.observe(r#"{"type":"ack","id":1,"seq":3}"#);
        // The update of the handed seat, sent by this one, settles like its own.
        p.observe(r#"{"type":"update","seq":3,"seat":0,"sender":1,"events":[],"status":{"status":"waiting","seats":[1]},"view":{}}"#);
        assert_eq!(p.last_own_update, Some(3));
        // No frame list: its own waiting seat, with what the view lists (the
        // duel's creation phase lists nothing and the bot drafts).
        let own: Vec<(Seat, usize)> = p.actionable().iter().map(|(s, a)| (*s, a.len())).collect();
        assert_eq!(own, vec![(1, 0)]);
        let own: Value = serde_json::from_str(&p.act_for(Some(1), &json!({"type":"pass"}))).unwrap();
        assert!(own.get("seat").is_none(), "its own seat needs no seat field");
    }

    /// Its own entry of the frame's list when there is one, else the
    /// view's list; an entry listing nothing counts as none.
    #[test]
    fn what_a_seat_may_do_is_its_own_entry_else_the_view_list() {
        let frame = |legal: Value| {
            json!({"type":"update","seq":2,"seat":0,"status":{"status":"waiting","seats":[0,1]},
                   "view":{"waiting_for":[0,1],"legal":[{"type":"pass"}]},"legal":legal})
            .to_string()
        };
        let mut p = Player::new();
        p.observe(&welcome(1, 1, &[1]));
        p.observe(&frame(json!([{"seat":0,"actions":[{"type":"a"}]},{"seat":1,"actions":[{"type":"b"}]}])));
        assert_eq!(values(p.legal()), vec![json!({"type":"b"})]);
        p.observe(&frame(json!([{"seat":0,"actions":[{"type":"a"}]},{"seat":1,"actions":[]}])));
        assert_eq!(values(p.legal()), vec![json!({"type":"pass"})]);
        p.observe(&frame(json!([])));
        assert_eq!(values(p.legal()), vec![json!({"type":"pass"})]);
    }

    #[test]
    fn a_server_without_legal_lists_is_recognised() {
        let mut p = Player::new();
        let frame = |legal: Value, control: Value| {
            json!({"type":"welcome","seat":0,"seq":1,"status":{"status":"waiting","seats":[0]},"view":{},
                   "legal":legal,"control":control})
            .to_string()
        };
        p.observe(&frame(json!([]), Value::Null));
        assert!(p.no_legal_lists(), "its turn and nothing listed");
        p.observe(&frame(json!([{"seat":0,"actions":[{"type":"end_turn"}]}]), Value::Null));
        assert!(!p.no_legal_lists());
        // Its seat handed to another player: nothing listed here, rightly.
        p.observe(&frame(json!([]), json!([1, null])));
        assert!(p.handed && !p.no_legal_lists());
        p.observe(&frame(json!([]), json!([null, null])));
        assert!(!p.handed, "all seats back with their owners");
    }

    #[test]
    fn listed_actions_are_kept_as_written_and_sent_back_so() {
        let mut p = Player::new();
        let move_ = r#"{"type":"move","to":[-3,4],"path":[[-3,3]]}"#;
        let frame = format!(
            r#"{{"type":"update","seq":2,"seat":1,"events":[],"status":{{"status":"waiting","seats":[0]}},
               "view":{{"waiting_for":[0],"legal":[{move_},{{"type":"end\u005fturn"}},7,{{"to":1}}]}}}}"#
        );
        p.observe(&welcome(0, 1, &[1]));
        p.observe(&frame);
        let kinds: Vec<String> = p.legal().iter().map(|a| kind_of(a).into_owned()).collect();
        assert_eq!(kinds, ["move", "end_turn", "", ""], "an escape read, no type is none");
        let sent: Value = serde_json::from_str(&p.act(&p.legal()[0].clone())).unwrap();
        assert_eq!(sent["action"], serde_json::from_str::<Value>(move_).unwrap());
        assert_eq!(legal_value(&p.legal()[0]), sent["action"]);
    }

    /// The scan finds what serde finds, or leaves the action to it.
    #[test]
    fn a_kind_scanned_is_the_kind_parsed() {
        let mut scanned = 0;
        for text in [
            r#"{"type":"move","to":[-3,4],"path":[[-3,3]]}"#,
            r#"{ "to" : {"type":"x"} , "type" : "end_turn" }"#,
            r#"{"words":"a \"type\": \"no\"","type":"pass"}"#,
            r#"{"type":"end\u005fturn"}"#,
            r#"{"ty\u0070e":"pass"}"#,
            r#"{"type":7}"#,
            r#"{"type":null,"to":1}"#,
            r#"{"to":1}"#,
            r#"{}"#,
            r#"[1,"type"]"#,
            r#""type""#,
            "7",
        ] {
            let raw = RawValue::from_string(text.to_owned()).unwrap();
            assert_eq!(kind_of(&raw), kind_parsed(&raw), "{text}");
            scanned += usize::from(crate::skim::plain_str_member(text, "type").is_some());
        }
        assert_eq!(scanned, 5, "the plain ones are scanned");
        // A key twice (which serde never writes): the parser refuses the
        // action, the scan reads the first.
        let twice = RawValue::from_string(r#"{"type":"a","type":"b"}"#.to_owned()).unwrap();
        assert_eq!((kind_of(&twice), kind_parsed(&twice)), ("a".into(), "".into()));
    }

    #[test]
    fn script_frames_keep_their_ids() {
        let mut p = Player::new();
        let t = p.frame(json!({"type":"act","id":40,"action":{"type":"pass"}}));
        assert!(t.contains("\"id\":40"));
        assert_eq!(p.in_flight.as_ref().unwrap().id, 40);
        assert!(p.act(&json!({"type":"pass"})).contains("\"id\":41"));
        assert_eq!(p.frame(json!({"type":"ping"})), r#"{"type":"ping"}"#);
    }

    /// A resume's welcome is history: nothing is acted on from it (nor from
    /// the missed updates before the last) until the seq it resumes to.
    #[test]
    fn a_resumes_welcome_is_not_acted_on_until_the_missed_updates_arrive() {
        let mut p = Player::default();
        let mut w: Value = serde_json::from_str(&welcome(0, 3, &[0])).unwrap();
        w["resumes_to"] = 5.into();
        p.observe(&w.to_string());
        assert!(!p.my_turn() && p.actionable().is_empty(), "the welcome at 3 is history");
        let mut u: Value = w.clone();
        u["type"] = "update".into();
        u["seq"] = 4.into();
        u["seat"] = 1.into();
        u["events"] = json!([]);
        p.observe(&u.to_string());
        assert!(!p.my_turn(), "4 is history too");
        u["seq"] = 5.into();
        p.observe(&u.to_string());
        assert!(p.my_turn(), "at 5 the view is the game now");
    }
}
