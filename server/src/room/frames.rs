//! The frames a room sends: the welcome of a connection, and for each
//! stored record the ack, one `update` per receiver (its own view, the
//! events it may see, the legal actions of the seats it acts for), the
//! commitments and, at the end, the reveals.
//!
//! Kept apart from the room's loop because this is where secrecy is
//! enforced: every view and event is filtered per viewer here and nowhere
//! else.

use std::{borrow::Cow, collections::HashMap, sync::Arc};

use athlas_engine::{Ruleset, Seat, SeatNames, Status, Viewer, Visible};
use athlas_protocol::{LegalFor, ServerMsg, PROTOCOL_VERSION};
use serde_json::{value::RawValue, Value};

use super::{encode, to_value, Actor, Frame, Hosted, Outbound, Room, Stored};
use crate::{
    store::{ActionRecord, RecordKind},
    table::{Acted, Applied, Table},
};

impl<R> Room<R>
where
    R: Hosted,
{
    /// Everything after durable: the actor's ack (and its latency), each
    /// connection's own update, new commitments, the reveals at the end,
    /// dropping connections that fell behind, and the next timed window.
    pub(super) fn publish(
        &mut self,
        record: &ActionRecord,
        published: &Published<R::Event>,
        stored: Stored,
        actor: Option<Actor>,
    ) {
        let Stored { seq, commitments, finished } = stored;
        if finished {
            tracing::info!(seq, "match finished");
        }
        if let Some(actor) = actor {
            self.ctx.metrics.action_accepted();
            self.ctx.metrics.ack_latency.observe(actor.received.elapsed());
            actor.out.send(&ServerMsg::Ack { id: actor.id, seq });
        }
        // The next timed window opens with this change: its clock goes out
        // in the same update.
        self.arm_timer();
        let board = R::board_key(&self.table.state);
        let change = Change {
            record,
            published,
            timer_ms: self.timer_ms(),
            control: self.control(record.kind == RecordKind::Hand),
            board_changed: board_changed(&self.board, &board),
        };
        self.board = board;
        // What every frame says alike (the status, the events and their
        // log lines) is written once for them all.
        let status = R::status(&self.table.state);
        let mut parts = UpdateParts::new(&change, &status);
        // Legal actions are listed once per waiting seat, whoever receives
        // them, and each distinct frame is encoded once: every spectator,
        // and every connection of one seat, shares the same bytes.
        let mut cache = HashMap::new();
        let mut encoded: Vec<(Viewer, bool, Frame)> = Vec::new();
        let mut lagging = Vec::new();
        // The views of all receivers built together: what every viewer sees
        // alike (the duel's units) is built and written to JSON once.
        let mut viewers: Vec<Viewer> = Vec::new();
        for s in &self.subs {
            if !viewers.contains(&s.viewer) {
                viewers.push(s.viewer);
            }
        }
        let views = R::views(&self.table.state, &viewers, change.board_changed, self.last_view.as_ref());
        for s in &self.subs {
            let key = (s.viewer, s.out.legal && matches!(s.viewer, Viewer::Seat(_)));
            let frame = match encoded.iter().find(|(v, l, _)| (*v, *l) == key) {
                Some((_, _, f)) => f.clone(),
                None => {
                    let view = &views[viewers.iter().position(|v| *v == s.viewer).expect("every receiver's viewer")];
                    let legal = self.legal_json_for(s.viewer, Some(view), s.out.legal, &status, &mut cache);
                    let f: Frame = parts.write::<R>(s.viewer, view, &legal).into();
                    encoded.push((key.0, key.1, f.clone()));
                    f
                }
            };
            if !s.out.send_frame(frame) {
                lagging.push(s.id);
            }
        }
        // Kept for the next record's views to copy from (none when nobody
        // received this one: the next then writes everything).
        self.last_view = views.into_iter().next().map(R::keep_as_before);
        self.log.record::<R>(record.seq, published);
        let mut public: Vec<ServerMsg> = commitments
            .iter()
            .map(|c| ServerMsg::Commitment { seat: c.seat, hash: c.hash.clone(), seq: c.seq })
            .collect();
        self.commitments.extend(commitments);
        if finished {
            public.extend(self.reveals());
        }
        for msg in &public {
            let frame = encode(msg);
            for s in &self.subs {
                if !s.out.send_frame(frame.clone()) {
                    lagging.push(s.id);
                }
            }
        }
        if !lagging.is_empty() {
            self.subs.retain(|s| {
                let keep = !lagging.contains(&s.id);
                if !keep {
                    s.out.kick.notify_one();
                    self.ctx.metrics.connection_dropped("lagged");
                }
                keep
            });
        }
    }

    /// The reveal of every commitment, and the seed: only once finished.
    fn reveals(&self) -> Vec<ServerMsg> {
        let mut msgs: Vec<ServerMsg> = self
            .commitments
            .iter()
            .map(|c| ServerMsg::Reveal {
                seat: c.seat,
                salt: c.salt.clone(),
                secret: R::locked_secret(&self.table.state, c.seat).unwrap_or(Value::Null),
                hash: c.hash.clone(),
            })
            .collect();
        msgs.push(ServerMsg::Seed { seed: self.record.seed.to_string() });
        msgs
    }

    /// The legal actions of each seat `viewer` acts for that the game waits
    /// for now, with their words; for a game whose view lists them
    /// ([`Ruleset::LEGAL_IN_VIEW`]), only their words, or nothing; the
    /// words of the list `view` (`viewer`'s, when at hand) gives its seat.
    /// For a welcome; an update's are [`Room::legal_json_for`]'s.
    pub(super) fn legal_for(
        &self,
        viewer: Viewer,
        view: Option<&R::View>,
        wants: bool,
        cache: &mut HashMap<Seat, LegalFor>,
    ) -> Vec<LegalFor> {
        self.legal_seats(viewer, wants, &R::status(&self.table.state))
            .into_iter()
            .map(|seat| {
                cache
                    .entry(seat)
                    .or_insert_with(|| {
                        self.with_legal(seat, viewer, view, |actions, words| LegalFor {
                            seat,
                            // A view that lists the actions (the duel's) has
                            // them already: only their words go beside it.
                            actions: if R::LEGAL_IN_VIEW { Vec::new() } else { actions.iter().map(to_value).collect() },
                            words,
                        })
                    })
                    .clone()
            })
            .filter(|l| !l.actions.is_empty() || !l.words.is_empty())
            .collect()
    }

    /// [`Room::legal_for`] as an update carries it: each seat's list
    /// written to JSON once and shared, straight from the game's actions
    /// and its words writer (no JSON value tree per action, no deep copy
    /// per receiver: a Divinity level-up lists a thousand pairs a seat).
    /// `status` is the table's now, worked out once for all receivers.
    pub(super) fn legal_json_for(
        &self,
        viewer: Viewer,
        view: Option<&R::View>,
        wants: bool,
        status: &Status,
        cache: &mut HashMap<Seat, Option<ListedJson>>,
    ) -> Vec<ListedJson> {
        self.legal_seats(viewer, wants, status)
            .into_iter()
            .filter_map(|seat| cache.entry(seat).or_insert_with(|| self.listed_json(seat, viewer, view)).clone())
            .collect()
    }

    /// `seat`'s entry of an update's `legal`: `{"seat","actions"?,"words"?}`
    /// as serde writes a [`LegalFor`] without its empty lists (a test holds
    /// the two equal), or none when both are empty.
    fn listed_json(&self, seat: Seat, viewer: Viewer, view: Option<&R::View>) -> Option<ListedJson> {
        let actions = self.actions_of(seat, viewer, view);
        listed_json::<R>(&self.table.state, &self.table.names, seat, &actions)
    }

    /// `seat`'s legal actions: from `view` when it lists them and is the
    /// seat's own (the duel's), else worked out from the state.
    fn actions_of<'v>(&self, seat: Seat, viewer: Viewer, view: Option<&'v R::View>) -> Cow<'v, [R::Action]> {
        match view.filter(|_| Viewer::Seat(seat) == viewer).and_then(R::legal_in) {
            Some(listed) => Cow::Borrowed(listed),
            None => Cow::Owned(R::legal(&self.table.state, seat)),
        }
    }

    /// The seats whose legal actions `viewer` is sent, the table's status
    /// being `status`.
    fn legal_seats(&self, viewer: Viewer, wants: bool, status: &Status) -> Vec<Seat> {
        let Viewer::Seat(player) = viewer else { return Vec::new() };
        if !wants || (R::LEGAL_IN_VIEW && !R::WORDS) {
            return Vec::new();
        }
        let Status::Waiting { seats: waiting } = status else { return Vec::new() };
        self.table
            .seats_of(player)
            .into_iter()
            // A view's own list may hold actions of a seat the game does
            // not wait for (the duel's draw offer): their words go too.
            .filter(|s| R::LEGAL_IN_VIEW || waiting.contains(s))
            .collect()
    }

    /// `seat`'s legal actions (from `view` when it lists them and is the
    /// seat's own) and their words, handed to `make`.
    fn with_legal<T>(
        &self,
        seat: Seat,
        viewer: Viewer,
        view: Option<&R::View>,
        make: impl FnOnce(&[R::Action], Vec<Value>) -> T,
    ) -> T {
        let actions = self.actions_of(seat, viewer, view);
        let words = if R::WORDS {
            R::named_action_words(&self.table.state, seat, &actions, &self.table.names)
        } else {
            Vec::new()
        };
        make(&actions, words)
    }

    /// `control` for frames: sent while any seat is handed (and by the
    /// record that returns the last one).
    pub(super) fn control(&self, always: bool) -> Option<Vec<Option<Seat>>> {
        (always || self.table.handed()).then(|| self.table.control.clone())
    }

    /// The `welcome` frame for `viewer` at `seq`, from `table`: the clock
    /// and the legal actions only when `table` is now (a resume's welcome
    /// is followed by the updates it missed, the last of which has them).
    pub(super) fn welcome(
        &self,
        viewer: Viewer,
        seq: u64,
        table: &Table<R>,
        timer_ms: Option<u64>,
        legal: Vec<LegalFor>,
    ) -> ServerMsg {
        ServerMsg::Welcome {
            protocol: PROTOCOL_VERSION,
            match_id: self.id.to_string(),
            game: R::GAME.to_owned(),
            seat: viewer.seat(),
            seq,
            status: to_value(&R::status(&table.state)),
            view: to_value(&R::view(&table.state, viewer)),
            timer_ms,
            legal,
            control: table.handed().then(|| table.control.clone()),
            campaign_id: self.record.campaign_id.map(|c| c.to_string()),
            log: self.log.lines(viewer, seq),
            names: if self.table.names.is_empty() { Vec::new() } else { self.table.names.as_slice().to_vec() },
            resumes_to: (seq < self.seq).then_some(self.seq),
        }
    }

    /// What a newcomer is owed after its welcome: every commitment so far
    /// and, once the match is over, the reveals and the seed.
    pub(super) fn send_secrets(&self, out: &Outbound) {
        for c in &self.commitments {
            out.send(&ServerMsg::Commitment { seat: c.seat, hash: c.hash.clone(), seq: c.seq });
        }
        if self.is_finished() {
            for msg in self.reveals() {
                out.send(&msg);
            }
        }
    }
}

/// One seat's legal actions and words as an update lists them, written
/// to JSON once and shared by every frame that carries them.
#[derive(Clone)]
pub(super) struct ListedJson(Arc<Box<RawValue>>);

impl serde::Serialize for ListedJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// `seat`'s entry of an update's `legal` for `actions`:
/// `{"seat","actions"?,"words"?}` as serde writes a [`LegalFor`] without
/// its empty lists (a test holds the two equal), or none when both are
/// empty.
fn listed_json<R: Ruleset>(
    state: &R::State,
    names: &SeatNames,
    seat: Seat,
    actions: &[R::Action],
) -> Option<ListedJson> {
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(b"{\"seat\":");
    out.extend_from_slice(itoa::Buffer::new().format(seat).as_bytes());
    let mut listed = false;
    // A view that lists the actions (the duel's) has them already: only
    // their words go beside it.
    if !R::LEGAL_IN_VIEW && !actions.is_empty() {
        out.extend_from_slice(b",\"actions\":");
        R::write_actions(actions, &mut out);
        listed = true;
    }
    if R::WORDS && !actions.is_empty() {
        let mark = out.len();
        out.extend_from_slice(b",\"words\":");
        let start = out.len();
        R::write_named_action_words(state, seat, actions, names, &mut out);
        if out[start..] == *b"[]" {
            out.truncate(mark);
        } else {
            listed = true;
        }
    }
    if !listed {
        return None;
    }
    out.push(b'}');
    let text = String::from_utf8(out).expect("JSON writers write UTF-8");
    debug_assert!(serde_json::from_str::<&RawValue>(&text).is_ok(), "a legal list that is not JSON: {text}");
    // SAFETY: one object of serde_json's own writing and the game's
    // words writer (one JSON value each, checked in debug builds), no
    // whitespace around it.
    Some(ListedJson(Arc::new(unsafe { RawValue::from_string_unchecked(text) })))
}

/// Whether an update's views carry the board: it is not as it was after
/// the record before (`Ruleset::board_key`), or the game keeps none.
pub(super) fn board_changed(before: &Option<Vec<u8>>, after: &Option<Vec<u8>>) -> bool {
    after.is_none() || after != before
}

/// What a stored record changed, as frames tell it.
pub(super) enum Published<E> {
    Events(Acted<E>),
    TakenBack(u64),
    Handed,
}

impl<E> Published<E> {
    pub(super) fn from_applied(a: Applied<E>) -> Self {
        match a {
            Applied::Action(acted) => Published::Events(acted),
            Applied::TakenBack(seq) => Published::TakenBack(seq),
            Applied::Handed => Published::Handed,
        }
    }
}

/// One record's change, the same for every receiver.
pub(super) struct Change<'a, E> {
    pub(super) record: &'a ActionRecord,
    pub(super) published: &'a Published<E>,
    pub(super) timer_ms: Option<u64>,
    pub(super) control: Option<Vec<Option<Seat>>>,
    /// The board differs from the previous record's (or the game has
    /// none): the views carry it.
    pub(super) board_changed: bool,
}

/// The `update` frame of `ServerMsg::Update` for one viewer, written
/// straight from the engine's values ([`UpdateParts`]): going through
/// `serde_json::Value` first cost more than the engine's own work (a map
/// allocation per field).
pub(super) fn update<R: Ruleset>(
    state: &R::State,
    viewer: Viewer,
    change: &Change<'_, R::Event>,
    legal: Vec<ListedJson>,
) -> String {
    let view = if change.board_changed { R::view(state, viewer) } else { R::view_without_board(state, viewer) };
    UpdateParts::new(change, &R::status(state)).write::<R>(viewer, &view, &legal)
}

/// What every `update` frame of one record says alike, written to JSON
/// once and shared by all its frames: all but the view and the legal
/// lists, and the events with their log lines once per set of them a
/// viewer may see (every viewer sees the same, but for the duel's few
/// secret events). Each frame is these pieces, its view and its legal
/// lists, byte for byte as serde writes the frame's struct (a test holds
/// the two equal): serde wrote the events, the log and the status again
/// for each viewer, a third of a Divinity update's instructions.
pub(super) struct UpdateParts<'a, E> {
    published: &'a Published<E>,
    /// `{"type":"update","seq":…,"seat":…,"events":`, then from `status`
    /// on `,"status":…,"view":`, from `after_view` on the fields between
    /// the view and `legal` (`timer_ms`, `sender`, `taken_back`, each when
    /// present), from `control` on `,"control":…` when present.
    fixed: Vec<u8>,
    status: usize,
    after_view: usize,
    control: usize,
    /// Each set of events written so far: which of the record's events
    /// it holds, and their `[…]` followed by `,"log":[…]` when any of
    /// them has a line.
    seen: Vec<(Vec<bool>, Vec<u8>)>,
}

impl<'a, E: serde::Serialize + Visible> UpdateParts<'a, E> {
    /// The parts of `change`'s frames, the table's status after it being
    /// `status`.
    pub(super) fn new(change: &Change<'a, E>, status: &Status) -> Self {
        let mut fixed = Vec::with_capacity(256);
        let mut int = itoa::Buffer::new();
        fixed.extend_from_slice(b"{\"type\":\"update\",\"seq\":");
        fixed.extend_from_slice(int.format(change.record.seq).as_bytes());
        fixed.extend_from_slice(b",\"seat\":");
        fixed.extend_from_slice(int.format(change.record.seat).as_bytes());
        fixed.extend_from_slice(b",\"events\":");
        let status_at = fixed.len();
        fixed.extend_from_slice(b",\"status\":");
        serde_json::to_writer(&mut fixed, status).expect("a status serializes");
        fixed.extend_from_slice(b",\"view\":");
        let after_view = fixed.len();
        if let Some(ms) = change.timer_ms {
            fixed.extend_from_slice(b",\"timer_ms\":");
            fixed.extend_from_slice(int.format(ms).as_bytes());
        }
        if let Some(sender) = change.record.sender {
            fixed.extend_from_slice(b",\"sender\":");
            fixed.extend_from_slice(int.format(sender).as_bytes());
        }
        if let Published::TakenBack(seq) = change.published {
            fixed.extend_from_slice(b",\"taken_back\":");
            fixed.extend_from_slice(int.format(*seq).as_bytes());
        }
        let control = fixed.len();
        if let Some(c) = &change.control {
            fixed.extend_from_slice(b",\"control\":");
            serde_json::to_writer(&mut fixed, c).expect("seats serialize");
        }
        // A record without events tells every viewer the same none.
        let seen = match change.published {
            Published::Events(_) => Vec::new(),
            Published::TakenBack(_) | Published::Handed => vec![(Vec::new(), b"[]".to_vec())],
        };
        UpdateParts { published: change.published, fixed, status: status_at, after_view, control, seen }
    }

    /// `viewer`'s frame, with its `view` and its `legal` lists: the view
    /// written by the game ([`Ruleset::write_view`]) into this thread's
    /// buffer ([`crate::buffer`]), then the frame written once at its
    /// size (copying a whole frame out of a buffer, and the view's text
    /// into serde's, cost a Divinity frame about 40 % of its writing).
    pub(super) fn write<R: Ruleset<Event = E>>(
        &mut self,
        viewer: Viewer,
        view: &R::View,
        legal: &[ListedJson],
    ) -> String {
        let shown = self.events_for(viewer);
        let events = &self.seen[shown].1;
        let fixed = &self.fixed;
        crate::buffer::with_buffer(|view_json| {
            R::write_view(view, view_json);
            // `,"legal":[`, the lists, a comma between two, `]`.
            let legal_len = if legal.is_empty() {
                0
            } else {
                10 + legal.len() + legal.iter().map(|l| l.0.get().len()).sum::<usize>()
            };
            let len = fixed.len() + events.len() + view_json.len() + legal_len + 1;
            let mut frame = Vec::with_capacity(len);
            frame.extend_from_slice(&fixed[..self.status]);
            frame.extend_from_slice(events);
            frame.extend_from_slice(&fixed[self.status..self.after_view]);
            frame.extend_from_slice(view_json);
            frame.extend_from_slice(&fixed[self.after_view..self.control]);
            if !legal.is_empty() {
                frame.extend_from_slice(b",\"legal\":[");
                for (i, l) in legal.iter().enumerate() {
                    if i > 0 {
                        frame.push(b',');
                    }
                    frame.extend_from_slice(l.0.get().as_bytes());
                }
                frame.push(b']');
            }
            frame.extend_from_slice(&fixed[self.control..]);
            frame.push(b'}');
            debug_assert_eq!(frame.len(), len, "a frame's size worked out wrong");
            // SAFETY: UTF-8 only: the game's view (serde_json's writing or
            // its own, of `str`s and ASCII escapes), the legal lists
            // (checked JSON text) and ASCII; checking every frame again
            // cost 1.3 % of a duel action's instructions.
            unsafe { String::from_utf8_unchecked(frame) }
        })
    }

    /// The index in `seen` of the events `viewer` may see, written the
    /// first time a viewer may see just these.
    fn events_for(&mut self, viewer: Viewer) -> usize {
        let Published::Events(acted) = self.published else { return 0 };
        let shown: Vec<bool> = acted.events.iter().map(|e| e.visible_to(viewer)).collect();
        if let Some(i) = self.seen.iter().position(|(s, _)| *s == shown) {
            return i;
        }
        let mut json = Vec::with_capacity(256);
        json.push(b'[');
        let mut first = true;
        for (e, _) in acted.events.iter().zip(&shown).filter(|(_, s)| **s) {
            if !first {
                json.push(b',');
            }
            first = false;
            serde_json::to_writer(&mut json, e).expect("engine events serialize");
        }
        json.push(b']');
        // Each line goes where its event goes; no `log` without a line.
        let mut lines = acted.words.iter().zip(&shown).filter(|(_, s)| **s).map(|(w, _)| w).peekable();
        if lines.peek().is_some() {
            json.extend_from_slice(b",\"log\":[");
            for (i, w) in lines.enumerate() {
                if i > 0 {
                    json.push(b',');
                }
                serde_json::to_writer(&mut json, w.as_str()).expect("strings serialize");
            }
            json.push(b']');
        }
        self.seen.push((shown, json));
        self.seen.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_engine::duel::{Duel, DuelAction, DuelOptions};

    /// The directly serialized update is exactly `ServerMsg::Update`.
    #[test]
    fn update_frames_are_server_msg_updates() {
        let mut state = Duel::start(&DuelOptions::default(), 7).unwrap();
        let events = Duel::apply(&mut state, 0, DuelAction::UsePreset { preset: "aquatic".into() }).unwrap();
        for (viewer, timer_ms) in [(Viewer::Seat(0), None), (Viewer::Seat(1), Some(1500)), (Viewer::Spectator, None)] {
            let record = ActionRecord::action(3, 0, Value::Null);
            let published = Published::Events(Acted { events: events.clone(), words: Vec::new() });
            let change =
                Change { record: &record, published: &published, timer_ms, control: None, board_changed: true };
            let text = update::<Duel>(&state, viewer, &change, Vec::new());
            let expected = ServerMsg::Update {
                seq: 3,
                seat: 0,
                events: events.iter().filter(|e| e.visible_to(viewer)).map(to_value).collect(),
                log: Vec::new(),
                status: to_value(&Duel::status(&state)),
                view: to_value(&Duel::view(&state, viewer)),
                timer_ms,
                sender: None,
                taken_back: None,
                legal: Vec::new(),
                control: None,
            };
            let parsed: ServerMsg = serde_json::from_str(&text).unwrap();
            assert_eq!(to_value(&parsed), to_value(&expected), "{viewer:?}");
        }
    }

    /// A board (the duel's hexes and players) the same as the previous
    /// record's is left out of the view, and only the board: the rest of
    /// the view is whole.
    #[test]
    fn an_unchanged_board_is_left_out_of_the_update() {
        let state = Duel::start(&DuelOptions::default(), 7).unwrap();
        let record = ActionRecord::action(3, 0, Value::Null);
        let published = Published::Events(Acted { events: Vec::new(), words: Vec::new() });
        for board_changed in [true, false] {
            let change =
                Change { record: &record, published: &published, timer_ms: None, control: None, board_changed };
            let text = update::<Duel>(&state, Viewer::Seat(0), &change, Vec::new());
            let frame: Value = serde_json::from_str(&text).unwrap();
            let mut whole = to_value(&Duel::view(&state, Viewer::Seat(0)));
            assert_eq!(frame["view"].get("hexes").is_some(), board_changed);
            assert_eq!(frame["view"].get("players").is_some(), board_changed);
            if !board_changed {
                whole.as_object_mut().unwrap().remove("hexes");
                whole.as_object_mut().unwrap().remove("players");
            }
            assert_eq!(frame["view"], whole);
        }
    }

    /// An update's legal entry, written by hand, is byte for byte serde's
    /// [`LegalFor`] without its empty lists: the duel (words beside the
    /// view's own list) and Divinity (actions and words), at every
    /// position of seeded games, for every waiting seat.
    #[test]
    fn listed_json_is_serde_legal_for() {
        use athlas_engine::divinity::{self, content::Catalogue, Divinity, DivinityOptions};
        use rand::{rngs::StdRng, Rng, SeedableRng};

        // What an update carried before it was written by hand: serde's
        // writing of the actions themselves (keys in declared order) and
        // of the words' values.
        #[derive(serde::Serialize)]
        struct Listed<'a, A> {
            seat: Seat,
            #[serde(skip_serializing_if = "<[A]>::is_empty")]
            actions: &'a [A],
            #[serde(skip_serializing_if = "<[Value]>::is_empty")]
            words: &'a [Value],
        }
        fn expected<R: Ruleset>(
            state: &R::State,
            names: &SeatNames,
            seat: Seat,
            actions: &[R::Action],
        ) -> Option<String> {
            let words = if R::WORDS { R::named_action_words(state, seat, actions, names) } else { Vec::new() };
            let shown = if R::LEGAL_IN_VIEW { &[][..] } else { actions };
            (!shown.is_empty() || !words.is_empty())
                .then(|| serde_json::to_string(&Listed { seat, actions: shown, words: &words }).unwrap())
        }
        fn check<R: Ruleset>(state: &R::State, names: &SeatNames) -> Vec<(Seat, Vec<R::Action>)> {
            let Status::Waiting { seats } = R::status(state) else { return Vec::new() };
            seats
                .into_iter()
                .map(|seat| {
                    let actions = R::legal(state, seat);
                    let written = listed_json::<R>(state, names, seat, &actions).map(|l| l.0.get().to_owned());
                    assert_eq!(written, expected::<R>(state, names, seat, &actions), "seat {seat}");
                    (seat, actions)
                })
                .collect()
        }

        let names = SeatNames::new(vec![Some("Ann \"the\" Bold\\".into()), None]);
        for seed in 0..3 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut state = Duel::start(&DuelOptions::default(), seed).unwrap();
            for _ in 0..150 {
                let lists = check::<Duel>(&state, &names);
                let Some((seat, actions)) = lists.into_iter().find(|(_, a)| !a.is_empty()) else { break };
                // Some listed entries are offers to fill in (`choose`),
                // refused as they stand: any accepted one will do.
                let from = rng.gen_range(0..actions.len());
                let played = (0..actions.len())
                    .any(|k| Duel::apply(&mut state, seat, actions[(from + k) % actions.len()].clone()).is_ok());
                if !played {
                    break;
                }
            }
        }
        let cat = Catalogue::standard();
        let mut checked = 0;
        for (seed, location, party) in [
            (1, "shipwreck", &["ifan", "sebille", "red_prince"][..]),
            (0, "fort_joy", &["fane", "lohse"][..]),
            (0, "hollow_marshes", &["ifan", "sebille", "red_prince", "fane"][..]),
        ] {
            let options = DivinityOptions {
                party: party.iter().map(|p| p.to_string()).collect(),
                location: Some(location.into()),
                ..DivinityOptions::default()
            };
            let mut state = Divinity::start(&options, seed).unwrap();
            for i in 0..400 {
                let lists = check::<Divinity>(&state, SeatNames::none());
                checked += lists.iter().filter(|(_, a)| !a.is_empty()).count();
                let Some((seat, a)) = lists.iter().cycle().skip(i).take(lists.len()).find_map(|(seat, actions)| {
                    let view = Divinity::view(&state, Viewer::Seat(*seat));
                    divinity::bot::choose(cat, &view, *seat, actions).map(|a| (*seat, a))
                }) else {
                    break;
                };
                Divinity::apply(&mut state, seat, a).unwrap();
            }
        }
        assert!(checked > 500, "the parties played on ({checked} lists)");
    }

    /// An update as serde wrote it from a derived struct before its frames
    /// were written from shared parts: the oracle of [`UpdateParts`].
    fn serde_update<R: Ruleset>(
        state: &R::State,
        viewer: Viewer,
        view: &R::View,
        change: &Change<'_, R::Event>,
        legal: Vec<ListedJson>,
    ) -> String {
        #[derive(serde::Serialize)]
        #[serde(tag = "type", rename = "update")]
        struct Frame<'a, E, S, V> {
            seq: u64,
            seat: Seat,
            events: Vec<&'a E>,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            log: Vec<&'a str>,
            status: S,
            view: &'a V,
            #[serde(skip_serializing_if = "Option::is_none")]
            timer_ms: Option<u64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            sender: Option<Seat>,
            #[serde(skip_serializing_if = "Option::is_none")]
            taken_back: Option<u64>,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            legal: Vec<ListedJson>,
            #[serde(skip_serializing_if = "Option::is_none")]
            control: Option<&'a [Option<Seat>]>,
        }
        let (events, log, taken_back) = match change.published {
            Published::Events(acted) => {
                let events = acted.events.iter().filter(|e| e.visible_to(viewer)).collect();
                let log = acted
                    .events
                    .iter()
                    .zip(&acted.words)
                    .filter(|(e, _)| e.visible_to(viewer))
                    .map(|(_, w)| w.as_str())
                    .collect();
                (events, log, None)
            }
            Published::TakenBack(seq) => (Vec::new(), Vec::new(), Some(*seq)),
            Published::Handed => (Vec::new(), Vec::new(), None),
        };
        let frame = Frame {
            seq: change.record.seq,
            seat: change.record.seat,
            events,
            log,
            status: R::status(state),
            view,
            timer_ms: change.timer_ms,
            sender: change.record.sender,
            taken_back,
            legal,
            control: change.control.as_deref(),
        };
        serde_json::to_string(&frame).unwrap()
    }

    /// Every frame of `published` at `state`, for every seat and a
    /// spectator, written from one set of shared parts per record as
    /// `publish` writes them, byte for byte the oracle's: with and without
    /// a clock, a sender and control, views whole and without the board,
    /// the legal lists of the seats the game waits for. The number of
    /// frames checked.
    fn check_record<R: Ruleset>(state: &R::State, published: &Published<R::Event>, seq: u64, seats: u8) -> usize {
        let names = SeatNames::new(vec![Some("Ann \"the\" Bold\\".into()), None]);
        let viewers: Vec<Viewer> = (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]).collect();
        let status = R::status(state);
        // Each seat's list as `publish` shares it: worked out once.
        let listed: Vec<Option<ListedJson>> = (0..seats)
            .map(|s| match &status {
                Status::Waiting { seats: waiting } if waiting.contains(&s) => {
                    listed_json::<R>(state, &names, s, &R::legal(state, s))
                }
                _ => None,
            })
            .collect();
        let mut checked = 0;
        for (i, (timer_ms, sender, control)) in [
            (None, None, None),
            (Some(1500), Some(1), Some(vec![Some(1), None, Some(0)])),
            (Some(0), None, Some(vec![None])),
            (None, Some(0), None),
        ]
        .into_iter()
        .enumerate()
        {
            let board_changed = i % 2 == 0;
            let mut record = ActionRecord::action(seq, (seq % u64::from(seats)) as Seat, Value::Null);
            record.sender = sender;
            let change = Change { record: &record, published, timer_ms, control, board_changed };
            let views = R::views(state, &viewers, board_changed, None);
            let mut parts = UpdateParts::new(&change, &status);
            // Twice over: the second time from the events written already.
            for (viewer, view) in viewers.iter().zip(&views).chain(viewers.iter().zip(&views)) {
                let legal: Vec<ListedJson> = match viewer {
                    Viewer::Seat(s) if i != 2 => listed[*s as usize].iter().cloned().collect(),
                    _ => Vec::new(),
                };
                let written = parts.write::<R>(*viewer, view, &legal);
                let expected = serde_update::<R>(state, *viewer, view, &change, legal);
                assert_eq!(written, expected, "seq {seq}, {viewer:?}, variant {i}");
                checked += 1;
            }
        }
        checked
    }

    /// `acted` with lines that need escapes: quotes, backslashes, control
    /// characters and text beyond ASCII, one per event when there are none.
    fn escaped<E>(mut acted: Acted<E>) -> Acted<E> {
        let odd = ["quote \" and \\ back", "tab\tnew\nline\u{1}\u{7f}", "é “curly” \u{2028} 🜲"];
        if acted.words.is_empty() {
            acted.words = (0..acted.events.len()).map(|i| odd[i % odd.len()].to_owned()).collect();
        } else if let Some(w) = acted.words.first_mut() {
            w.push_str(odd[0]);
        }
        acted
    }

    /// A record's events at `before` -> `after` as the table publishes
    /// them, with their words.
    fn acted<R: Ruleset>(before: &R::State, after: &R::State, events: Vec<R::Event>) -> Acted<R::Event> {
        let words = if R::WORDS { R::named_event_words(before, after, &events, SeatNames::none()) } else { Vec::new() };
        Acted { events, words }
    }

    /// Each frame `publish` writes from a record's shared parts is byte
    /// for byte what serde wrote of the whole frame: the duel (with events
    /// only one seat may see), Divinity and nim, for records of seeded
    /// games, taken-back and handed records and records without events.
    #[test]
    fn shared_part_frames_are_serde_frames() {
        use athlas_engine::{
            divinity::{self, content::Catalogue, Divinity, DivinityOptions},
            duel::{event::EventKind, DuelEvent},
            nim::{Nim, NimAction, NimOptions},
        };
        use rand::{rngs::StdRng, Rng, SeedableRng};

        let mut checked = 0;
        let mut secret = 0;
        for seed in 0..2 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut state = Duel::start(&DuelOptions::default(), seed).unwrap();
            for seq in 1..120 {
                let Status::Waiting { seats } = Duel::status(&state) else { break };
                let Some((seat, actions)) =
                    seats.iter().map(|s| (*s, Duel::legal(&state, *s))).find(|(_, a)| !a.is_empty())
                else {
                    break;
                };
                let before = state.clone();
                let from = rng.gen_range(0..actions.len());
                let Some(events) = (0..actions.len())
                    .find_map(|k| Duel::apply(&mut state, seat, actions[(from + k) % actions.len()].clone()).ok())
                else {
                    break;
                };
                let mut acted = acted::<Duel>(&before, &state, events);
                secret += acted.events.iter().filter(|e| e.only.is_some()).count();
                // Events only one seat may see, among the public ones
                // (a Divine Intervention's discards).
                if seq % 3 == 0 {
                    for (at, only) in [(0, 0), (acted.events.len() / 2 + 1, 1)] {
                        let at = at.min(acted.events.len());
                        let cards = vec!["fireball".into(), "wall \"of\" ice".into()];
                        acted
                            .events
                            .insert(at, DuelEvent::private(only, EventKind::DiDiscardedCards { seat: only, cards }));
                        acted.words.insert(at.min(acted.words.len()), format!("Seat {only} discards"));
                        secret += 1;
                    }
                }
                // Only secret events: a viewer sees none (and no log).
                if seq % 7 == 0 {
                    acted.events.retain(|e| e.only.is_some());
                    acted.words.truncate(acted.events.len());
                }
                let acted = if seq % 5 == 0 { escaped(acted) } else { acted };
                checked += check_record::<Duel>(&state, &Published::Events(acted), seq, 2);
                if seq % 10 == 0 {
                    checked += check_record::<Duel>(&state, &Published::TakenBack(seq - 1), seq, 2);
                    checked += check_record::<Duel>(&state, &Published::Handed, seq, 2);
                    checked += check_record::<Duel>(
                        &state,
                        &Published::Events(Acted { events: Vec::new(), words: Vec::new() }),
                        seq,
                        2,
                    );
                }
            }
        }
        assert!(secret > 20, "the duel had events one seat may not see ({secret})");

        let cat = Catalogue::standard();
        let options = DivinityOptions {
            party: ["ifan", "sebille", "red_prince"].iter().map(|p| p.to_string()).collect(),
            location: Some("shipwreck".into()),
            ..DivinityOptions::default()
        };
        let mut state = Divinity::start(&options, 1).unwrap();
        for seq in 1..60 {
            let Status::Waiting { seats } = Divinity::status(&state) else { break };
            let Some((seat, a)) = seats.iter().cycle().skip(seq as usize).take(seats.len()).find_map(|seat| {
                let view = Divinity::view(&state, Viewer::Seat(*seat));
                divinity::bot::choose(cat, &view, *seat, &Divinity::legal(&state, *seat)).map(|a| (*seat, a))
            }) else {
                break;
            };
            let before = state.clone();
            let events = Divinity::apply(&mut state, seat, a).unwrap();
            let acted = acted::<Divinity>(&before, &state, events);
            let acted = if seq % 4 == 0 { escaped(acted) } else { acted };
            checked += check_record::<Divinity>(&state, &Published::Events(acted), seq, 3);
            if seq % 9 == 0 {
                checked += check_record::<Divinity>(&state, &Published::TakenBack(seq - 1), seq, 3);
                checked += check_record::<Divinity>(&state, &Published::Handed, seq, 3);
            }
        }

        let mut state = Nim::start(&NimOptions { pile: 9 }, 0).unwrap();
        for seq in 1.. {
            let Status::Waiting { seats } = Nim::status(&state) else { break };
            let before = state.clone();
            let n = (1 + (seq % 3) as u32).min(state.pile);
            let events = Nim::apply(&mut state, seats[0], NimAction::Take { n }).unwrap();
            let acted = acted::<Nim>(&before, &state, events);
            checked += check_record::<Nim>(&state, &Published::Events(escaped(acted)), seq, 2);
            checked += check_record::<Nim>(&state, &Published::TakenBack(seq), seq, 2);
        }
        assert!(checked > 3000, "frames checked: {checked}");
    }
}
