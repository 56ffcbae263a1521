//! The match's log in words, for a game that describes itself
//! ([`Ruleset::WORDS`], Divinity): the latest records' events with their
//! lines, kept by the room so that every welcome tells a newcomer what
//! happened before (a reload, a late spectator, a player back the next
//! evening), each receiver only the events it may see.
//!
//! Filled by the room's fold from the start of the log when it loads
//! ([`super::rebuild::rebuild_with_log`]) and by every record it publishes;
//! a take-back drops the lines of the records it undid, as the table forgets
//! them.

use std::collections::VecDeque;

use athlas_engine::{Ruleset, Viewer, Visible};
use athlas_protocol::{LogLine, LOG_RECORDS};

use super::frames::Published;

/// The latest records' events in words, oldest first.
pub(super) struct WordLog<E> {
    records: VecDeque<(u64, Vec<(E, String)>)>,
}

impl<E> Default for WordLog<E> {
    fn default() -> Self {
        WordLog { records: VecDeque::new() }
    }
}

impl<E: Visible + Clone> WordLog<E> {
    /// Record `seq`'s change: its events' lines, or the lines a take-back
    /// undid gone. Nothing for a game without words.
    pub(super) fn record<R: Ruleset<Event = E>>(&mut self, seq: u64, published: &Published<E>) {
        if !R::WORDS {
            return;
        }
        match published {
            Published::Events(acted) => {
                if acted.events.is_empty() {
                    return;
                }
                let lines = acted.events.iter().cloned().zip(acted.words.iter().cloned()).collect();
                self.records.push_back((seq, lines));
                if self.records.len() > LOG_RECORDS {
                    self.records.pop_front();
                }
            }
            Published::TakenBack(undone) => self.records.retain(|(s, _)| s < undone),
            Published::Handed => {}
        }
    }

    /// What `viewer` may read of the log up to `seq`.
    pub(super) fn lines(&self, viewer: Viewer, seq: u64) -> Vec<LogLine> {
        self.records
            .iter()
            .take_while(|(s, _)| *s <= seq)
            .flat_map(|(s, lines)| {
                lines
                    .iter()
                    .filter(|(e, _)| e.visible_to(viewer))
                    .map(|(_, text)| LogLine { seq: *s, text: text.clone() })
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

    /// A game without words keeps nothing.
    #[test]
    fn a_game_without_words_keeps_no_log() {
        use athlas_engine::duel::Duel;
        let mut log: WordLog<athlas_engine::duel::DuelEvent> = WordLog::default();
        log.record::<Duel>(1, &Published::Events(Acted { events: Vec::new(), words: Vec::new() }));
        assert!(log.lines(Viewer::Spectator, 1).is_empty());
    }
}
