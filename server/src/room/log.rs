//! The match's log in words, for a game that describes itself
//! ([`Ruleset::WORDS`]: the duel, Divinity): every record's events as
//! lines, kept by the room so that every welcome tells a newcomer the
//! whole match (a reload, a late spectator, a player back the next evening,
//! a finished match reopened), each receiver only the lines it may see.
//!
//! Filled by the room's fold from the start of the log when it loads
//! ([`super::rebuild::rebuild_with_log`]) and by every record it publishes;
//! a take-back drops the lines of the records it undid, as the table forgets
//! them. A line keeps who may read it, not its event: a whole duel is some
//! 1,500 lines, and the room holds them as long as it is loaded.

use std::collections::VecDeque;

use athlas_engine::{Ruleset, Viewer, Visible};
use athlas_protocol::{LogLine, LOG_RECORDS};

use super::frames::Published;

/// Who may read a line: bit `s` for seat `s` (seats 0 to 30), bit 31 for
/// spectators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Readers(u32);

impl Readers {
    const SPECTATOR: u32 = 1 << 31;

    fn of(event: &impl Visible) -> Readers {
        let seats = (0..31u8).filter(|s| event.visible_to(Viewer::Seat(*s))).fold(0, |m, s| m | 1 << s);
        let spectator = if event.visible_to(Viewer::Spectator) { Self::SPECTATOR } else { 0 };
        Readers(seats | spectator)
    }

    fn include(self, viewer: Viewer) -> bool {
        match viewer {
            Viewer::Seat(s) => s < 31 && self.0 & (1 << s) != 0,
            Viewer::Spectator => self.0 & Self::SPECTATOR != 0,
        }
    }
}

/// One record's lines, each with who may read it.
struct Record {
    seq: u64,
    lines: Vec<(Readers, Box<str>)>,
}

/// The records' lines, oldest first (at most [`LOG_RECORDS`] records).
#[derive(Default)]
pub(super) struct WordLog {
    records: VecDeque<Record>,
}

impl WordLog {
    /// Record `seq`'s change: its events' lines, or the lines a take-back
    /// undid gone. Nothing for a game without words.
    pub(super) fn record<R: Ruleset>(&mut self, seq: u64, published: &Published<R::Event>) {
        if !R::WORDS {
            return;
        }
        match published {
            Published::Events(acted) => {
                if acted.events.is_empty() {
                    return;
                }
                let lines =
                    acted.events.iter().zip(&acted.words).map(|(e, w)| (Readers::of(e), w.as_str().into())).collect();
                self.records.push_back(Record { seq, lines });
                if self.records.len() > LOG_RECORDS {
                    self.records.pop_front();
                }
            }
            Published::TakenBack(undone) => self.records.retain(|r| r.seq < *undone),
            Published::Handed => {}
        }
    }

    /// What `viewer` may read of the log up to `seq`.
    pub(super) fn lines(&self, viewer: Viewer, seq: u64) -> Vec<LogLine> {
        self.records
            .iter()
            .take_while(|r| r.seq <= seq)
            .flat_map(|r| {
                r.lines
                    .iter()
                    .filter(|(readers, _)| readers.include(viewer))
                    .map(|(_, text)| LogLine { seq: r.seq, text: text.to_string() })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Acted;
    use athlas_engine::divinity::{Divinity, DivinityAction, DivinityOptions};

    fn acted(events: Vec<athlas_engine::divinity::DivinityEvent>) -> Published<athlas_engine::divinity::DivinityEvent> {
        let words = events.iter().enumerate().map(|(i, _)| format!("line {i}")).collect();
        Published::Events(Acted { events, words })
    }

    /// Lines come with their record, a take-back drops the records it
    /// undid, and a welcome at an earlier seq reads only up to it.
    #[test]
    fn the_log_keeps_lines_by_record_and_forgets_what_was_taken_back() {
        let mut state = Divinity::start(&DivinityOptions::default(), 3).unwrap();
        let events = Divinity::apply(&mut state, 0, DivinityAction::ChooseRound { explore: true }).unwrap();
        assert!(!events.is_empty());
        let mut log = WordLog::default();
        log.record::<Divinity>(1, &acted(events.clone()));
        log.record::<Divinity>(2, &Published::Handed);
        log.record::<Divinity>(3, &acted(events.clone()));
        let n = events.len();
        assert_eq!(log.lines(Viewer::Spectator, 3).len(), 2 * n);
        assert_eq!(log.lines(Viewer::Seat(1), 1).len(), n);
        assert!(log.lines(Viewer::Spectator, 3).iter().take(n).all(|l| l.seq == 1));
        log.record::<Divinity>(4, &Published::TakenBack(3));
        assert_eq!(log.lines(Viewer::Spectator, 4).len(), n);
        assert_eq!(log.lines(Viewer::Spectator, 4)[0].text, "line 0");
    }

    /// A line goes only where its event goes: a duel's discarded cards to
    /// their seat alone, the count of them to everyone.
    #[test]
    fn a_line_is_read_only_where_its_event_goes() {
        use athlas_engine::duel::event::{DuelEvent, EventKind};
        use athlas_engine::duel::Duel;
        let events = vec![
            DuelEvent::public(EventKind::DiDiscarded { seat: 1, count: 1 }),
            DuelEvent::private(1, EventKind::DiDiscardedCards { seat: 1, cards: vec!["flood".into()] }),
        ];
        let words = vec!["Seat 1 discarded 1 card".to_owned(), "Seat 1 discarded Flood".to_owned()];
        let mut log = WordLog::default();
        log.record::<Duel>(4, &Published::Events(Acted { events, words }));
        let texts = |v: Viewer| log.lines(v, 4).into_iter().map(|l| l.text).collect::<Vec<_>>();
        assert_eq!(texts(Viewer::Seat(1)), ["Seat 1 discarded 1 card", "Seat 1 discarded Flood"]);
        assert_eq!(texts(Viewer::Seat(0)), ["Seat 1 discarded 1 card"]);
        assert_eq!(texts(Viewer::Spectator), ["Seat 1 discarded 1 card"]);
    }
}
