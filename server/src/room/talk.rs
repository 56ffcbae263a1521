//! Table talk: what the party says to itself besides its actions.
//!
//! - **Proposals.** Where the book has the party decide together (a game's
//!   [`Ruleset::party_decision`]: Divinity's round choice, card order, tie
//!   breaks, while it has no leader), a seat proposes the decision, every
//!   seat connected agrees or any objects, and the last agreement takes it
//!   through the same path as an `act`. A proposal lives in the room only:
//!   any change of the table ends it, and so does a restart.
//! - **Chat.** Seats speak to the party, spectators to the spectators;
//!   lines are stored with the match ([`crate::store::ChatLine`]), plain
//!   text of at most [`MAX_CHAT_CHARS`] characters, at most 5 at once and
//!   then one every 2 s per connection; a newcomer gets the latest lines of
//!   its channel after its welcome.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use athlas_engine::{Seat, Status, Viewer};
use athlas_protocol::{Channel, ServerMsg, MAX_CHAT_CHARS};
use serde::Deserialize;
use serde_json::Value;
use tokio::time::Instant;

use super::{to_value, Hosted, Outbound, Room};
use crate::refusal::{Code, Refusal};

/// Lines a newcomer gets after its welcome.
pub(super) const CHAT_BACKLOG: u32 = 50;
/// A connection's chat allowance: a burst of this many lines…
const CHAT_BURST: f64 = 5.0;
/// …then one line per this long.
const CHAT_EVERY: Duration = Duration::from_secs(2);

/// The party's proposal now.
pub(super) struct Proposal {
    by: Seat,
    seat: Seat,
    action: Value,
    agreed: Vec<Seat>,
    /// The seq it was made at: a change of the table ends it.
    seq: u64,
}

/// A connection's chat allowance (a token bucket).
#[derive(Debug)]
pub(super) struct ChatAllowance {
    tokens: f64,
    at: Instant,
}

impl Default for ChatAllowance {
    fn default() -> Self {
        ChatAllowance { tokens: CHAT_BURST, at: Instant::now() }
    }
}

impl ChatAllowance {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() / CHAT_EVERY.as_secs_f64();
        self.tokens = (self.tokens + refill).min(CHAT_BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Who reads `viewer`'s chat, and whom it speaks to.
pub(super) fn channel_of(viewer: Viewer) -> Channel {
    match viewer {
        Viewer::Seat(_) => Channel::Party,
        Viewer::Spectator => Channel::Spectators,
    }
}

pub(super) fn channel_name(c: Channel) -> &'static str {
    match c {
        Channel::Party => "party",
        Channel::Spectators => "spectators",
    }
}

/// Why a chat line is refused, if it is: empty, too long, or not plain text
/// (control characters other than none at all).
fn bad_chat(text: &str) -> Option<String> {
    let n = text.chars().count();
    if text.trim().is_empty() {
        return Some("say something".into());
    }
    if n > MAX_CHAT_CHARS {
        return Some(format!("at most {MAX_CHAT_CHARS} characters ({n} sent)"));
    }
    if text.chars().any(char::is_control) {
        return Some("plain text only: no line breaks or control characters".into());
    }
    None
}

impl<R> Room<R>
where
    R: Hosted,
{
    /// The seats with a connection now, in order.
    fn seats_here(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = self
            .subs
            .iter()
            .filter_map(|s| match s.viewer {
                Viewer::Seat(seat) => Some(seat),
                Viewer::Spectator => None,
            })
            .collect();
        seats.sort_unstable();
        seats.dedup();
        seats
    }

    /// The proposal still standing: none once the table changed.
    fn standing_proposal(&mut self) -> Option<&mut Proposal> {
        if self.proposal.as_ref().is_some_and(|p| p.seq != self.seq) {
            self.proposal = None;
        }
        self.proposal.as_mut()
    }

    fn send_to_all(&self, msg: &ServerMsg) {
        for s in &self.subs {
            s.out.send(msg);
        }
    }

    fn proposal_msg(&self, p: &Proposal, withdrawn: Option<Seat>) -> ServerMsg {
        let waiting = self.seats_here().into_iter().filter(|s| !p.agreed.contains(s)).collect();
        let words = if R::WORDS {
            R::Action::deserialize(&p.action).ok().and_then(|a| {
                R::named_action_words(&self.table.state, p.seat, &[a], &self.table.names).into_iter().next()
            })
        } else {
            None
        };
        ServerMsg::Proposal {
            by: p.by,
            seat: p.seat,
            action: p.action.clone(),
            words,
            agreed: p.agreed.clone(),
            waiting,
            withdrawn,
            seq: p.seq,
        }
    }

    /// `propose` from subscriber `sub` (seat `player`) for `seat`.
    pub(super) async fn propose(&mut self, sub: u64, player: Seat, seat: Seat, id: u64, action: Value) -> bool {
        let Some((_, refuse)) = self.actor(sub, id) else { return true };
        if self.is_finished() {
            refuse(Refusal::new(Code::Finished, "the match is over"));
            return true;
        }
        if !self.table.acts_for(player, seat) {
            refuse(Refusal::new(Code::NotYourSeat, format!("seat {seat} is not handed to you (seat {player})")));
            return true;
        }
        let parsed = match R::Action::deserialize(&action) {
            Ok(a) => a,
            Err(e) => {
                refuse(Refusal::new(Code::BadAction, format!("not a {} action: {e}", R::GAME)));
                return true;
            }
        };
        if !R::party_decision(&self.table.state, &parsed) {
            refuse(Refusal::new(
                Code::NotAPartyDecision,
                "the party does not decide this together now: send it as an act",
            ));
            return true;
        }
        let waits = matches!(R::status(&self.table.state), Status::Waiting { seats } if seats.contains(&seat));
        if !waits || !R::legal(&self.table.state, seat).iter().any(|a| to_value(a) == action) {
            refuse(Refusal::new(Code::NotLegal, "that is not among the actions the party may take now"));
            return true;
        }
        self.proposal = Some(Proposal { by: player, seat, action, agreed: vec![player], seq: self.seq });
        self.carry_or_tell(sub, id).await
    }

    /// `agree` from subscriber `sub` (seat `player`).
    pub(super) async fn agree(&mut self, sub: u64, player: Seat, id: u64) -> bool {
        let Some((_, refuse)) = self.actor(sub, id) else { return true };
        let Some(p) = self.standing_proposal() else {
            refuse(Refusal::new(Code::NoProposal, "the party has no proposal now"));
            return true;
        };
        if !p.agreed.contains(&player) {
            p.agreed.push(player);
        }
        self.carry_or_tell(sub, id).await
    }

    /// `object` from subscriber `sub` (seat `player`): the proposal goes.
    pub(super) fn object(&mut self, sub: u64, player: Seat, id: u64) {
        let Some((_, refuse)) = self.actor(sub, id) else { return };
        if self.standing_proposal().is_none() {
            refuse(Refusal::new(Code::NoProposal, "the party has no proposal now"));
            return;
        }
        let p = self.proposal.take().expect("standing");
        let msg = self.proposal_msg(&p, Some(player));
        self.send_to_all(&msg);
    }

    /// Take the proposal when every seat connected agreed (the agreeing
    /// connection gets the ack), else tell everyone where it stands.
    async fn carry_or_tell(&mut self, sub: u64, id: u64) -> bool {
        let p = self.proposal.as_ref().expect("a proposal");
        if self.seats_here().iter().all(|s| p.agreed.contains(s)) {
            let p = self.proposal.take().expect("a proposal");
            return self.act(sub, p.by, p.seat, id, p.action).await;
        }
        let msg = self.proposal_msg(p, None);
        self.send_to_all(&msg);
        true
    }

    /// What a newcomer is owed of the table talk: the proposal standing and
    /// the latest lines of its channel.
    pub(super) async fn send_talk(&mut self, viewer: Viewer, out: &Outbound) {
        if self.standing_proposal().is_some() {
            let msg = self.proposal_msg(self.proposal.as_ref().expect("standing"), None);
            out.send(&msg);
        }
        let channel = channel_of(viewer);
        match self.ctx.store.chat(self.id, channel_name(channel), CHAT_BACKLOG).await {
            Ok(lines) => {
                for l in lines {
                    out.send(&ServerMsg::Chat { id: None, n: l.n, channel, seat: l.seat, text: l.text, at: l.at_ms });
                }
            }
            Err(e) => tracing::warn!(error = %e, "chat backlog not read"),
        }
    }

    /// `chat` from subscriber `sub`.
    pub(super) async fn chat(&mut self, sub: u64, id: u64, text: String) {
        let Some((_, refuse)) = self.actor(sub, id) else { return };
        let Some(s) = self.subs.iter_mut().find(|s| s.id == sub) else { return };
        let viewer = s.viewer;
        if let Some(why) = bad_chat(&text) {
            refuse(Refusal::new(Code::BadChat, why));
            return;
        }
        if !s.chat.take() {
            refuse(Refusal::new(Code::ChatTooFast, "at most 5 lines at once, then one every 2 seconds"));
            return;
        }
        let channel = channel_of(viewer);
        let at = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let line = match self.ctx.store.add_chat(self.id, channel_name(channel), viewer.seat(), &text, at).await {
            Ok(l) => l,
            Err(e) => {
                refuse(Refusal::new(e.code(), format!("the line was not kept: {e}")));
                return;
            }
        };
        for s in self.subs.iter().filter(|s| channel_of(s.viewer) == channel) {
            s.out.send(&ServerMsg::Chat {
                id: (s.id == sub).then_some(id),
                n: line.n,
                channel,
                seat: line.seat,
                text: line.text.clone(),
                at: line.at_ms,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chat_line_is_plain_text_of_bounded_length() {
        assert!(bad_chat("Let's rest, I'm at 3 HP <b>").is_none());
        assert!(bad_chat("   ").is_some());
        assert!(bad_chat("two\nlines").is_some());
        assert!(bad_chat(&"é".repeat(MAX_CHAT_CHARS)).is_none());
        assert!(bad_chat(&"é".repeat(MAX_CHAT_CHARS + 1)).is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_may_say_five_lines_at_once_then_one_every_two_seconds() {
        let mut a = ChatAllowance::default();
        for _ in 0..5 {
            assert!(a.take());
        }
        assert!(!a.take());
        tokio::time::advance(Duration::from_millis(1999)).await;
        assert!(!a.take());
        tokio::time::advance(Duration::from_millis(2)).await;
        assert!(a.take());
    }
}
