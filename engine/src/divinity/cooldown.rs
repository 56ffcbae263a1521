//! Cooldown tracks (L402-418): slots holding statuses, skills, ongoing
//! consumables and Boss tactics, sliding one slot at the end of each turn.
//! Origin and Boss tracks have 5 slots and slide left; minion tracks have 3
//! and slide down. Slot 1 is the last before a card is cleared.

use serde::{Deserialize, Serialize};

use super::status::Status;

/// Slots on an Origin or Boss track; also their status duration cap (L692).
pub const ORIGIN_TRACK: u8 = 5;
/// Slots on a minion track; also their status duration cap (L692).
pub const MINION_TRACK: u8 = 3;

/// A skill or consumable played only for its keyword goes face down on this
/// slot, whatever its printed cooldown (L798, L1202).
pub const KEYWORD_SLOT: u8 = 3;

/// What a card on a track is.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum CardRef {
    Status(Status),
    Skill(String),
    Consumable(String),
    Tactic(String),
}

#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackCard {
    pub card: CardRef,
    /// Face-up cards have active ongoing effects (L416).
    pub face_up: bool,
    /// An ongoing card flips face down on reaching this slot (L875).
    pub flip_at: Option<u8>,
}

/// What happened when a status was applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Applied {
    New {
        slot: u8,
    },
    /// Reapplied with a higher cooldown: slid to a higher slot (L690).
    Extended {
        from: u8,
        to: u8,
    },
    /// Reapplied with a cooldown not higher than the current slot.
    Unchanged {
        slot: u8,
    },
}

/// What one slide did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slid {
    /// Cards that left the end of the track.
    pub cleared: Vec<TrackCard>,
    /// Ongoing cards that just flipped face down.
    pub flipped: Vec<CardRef>,
}

#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Track {
    /// `slots[0]` is slot 1.
    pub slots: Vec<Vec<TrackCard>>,
}

// Copied into a kept state by `clone_from` (`state.rs`, "Copies"): a
// card's name into the one already there.
super::state::clone_by_field!(Track { slots });
super::state::clone_by_field!(TrackCard { card, face_up, flip_at });

impl Clone for CardRef {
    fn clone(&self) -> CardRef {
        match self {
            CardRef::Status(s) => CardRef::Status(*s),
            CardRef::Skill(k) => CardRef::Skill(k.clone()),
            CardRef::Consumable(k) => CardRef::Consumable(k.clone()),
            CardRef::Tactic(k) => CardRef::Tactic(k.clone()),
        }
    }

    fn clone_from(&mut self, source: &CardRef) {
        match (self, source) {
            (CardRef::Skill(k), CardRef::Skill(from))
            | (CardRef::Consumable(k), CardRef::Consumable(from))
            | (CardRef::Tactic(k), CardRef::Tactic(from)) => k.clone_from(from),
            (this, _) => *this = source.clone(),
        }
    }
}

impl Track {
    pub fn new(len: u8) -> Track {
        Track { slots: vec![Vec::new(); len as usize] }
    }

    pub fn len(&self) -> u8 {
        self.slots.len() as u8
    }

    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(Vec::is_empty)
    }

    /// Place a card in a slot. A slot past the end is the top slot; slot 0
    /// (no cooldown) clears at once and the card is returned.
    pub fn place(&mut self, card: TrackCard, slot: u8) -> Option<TrackCard> {
        if slot == 0 {
            return Some(card);
        }
        let s = slot.min(self.len()).max(1);
        let mut card = card;
        if card.face_up && card.flip_at.is_some_and(|f| s <= f) {
            card.face_up = false;
        }
        self.slots[s as usize - 1].push(card);
        None
    }

    /// The slot (1-based) of a status, if the bearer has it.
    pub fn status_slot(&self, s: Status) -> Option<u8> {
        self.find(&CardRef::Status(s))
    }

    pub fn find(&self, card: &CardRef) -> Option<u8> {
        self.slots.iter().position(|slot| slot.iter().any(|c| &c.card == card)).map(|i| i as u8 + 1)
    }

    pub fn has(&self, s: Status) -> bool {
        self.status_slot(s).is_some()
    }

    /// Statuses on the track, lowest slot first.
    pub fn statuses(&self) -> Vec<Status> {
        let mut out = Vec::new();
        for slot in &self.slots {
            for c in slot {
                if let CardRef::Status(s) = c.card {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Face-up cards: the active ongoing effects.
    pub fn active(&self) -> impl Iterator<Item = &CardRef> {
        self.slots.iter().flatten().filter(|c| c.face_up).map(|c| &c.card)
    }

    /// Apply a status for `cooldown` rounds (L662, L688-692): a new card goes
    /// in that slot (capped at the track length); a status already there is
    /// never doubled but slides up when the new cooldown is higher, never
    /// past the cap.
    pub fn apply_status(&mut self, s: Status, cooldown: u8) -> Applied {
        let target = cooldown.clamp(1, self.len());
        match self.status_slot(s) {
            None => {
                self.place(TrackCard { card: CardRef::Status(s), face_up: true, flip_at: None }, target);
                Applied::New { slot: target }
            }
            Some(cur) if target > cur => {
                let card = self.take(&CardRef::Status(s)).expect("status is on the track");
                self.slots[target as usize - 1].push(card);
                Applied::Extended { from: cur, to: target }
            }
            Some(cur) => Applied::Unchanged { slot: cur },
        }
    }

    /// Remove a card (an effect that clears a status at once, L666).
    pub fn take(&mut self, card: &CardRef) -> Option<TrackCard> {
        for slot in &mut self.slots {
            if let Some(i) = slot.iter().position(|c| &c.card == card) {
                return Some(slot.remove(i));
            }
        }
        None
    }

    /// Move one card one slot towards the end (the Recover action's slide,
    /// L1592); from slot 1 it is cleared and returned.
    pub fn slide_one(&mut self, card: &CardRef) -> Option<TrackCard> {
        let slot = self.find(card)?;
        let c = self.take(card)?;
        if slot == 1 {
            Some(c)
        } else {
            self.slots[slot as usize - 2].push(c);
            None
        }
    }

    /// End of turn: every card slides one slot; cards off the end are cleared;
    /// ongoing cards reaching their flip slot flip face down (L408, L875).
    pub fn slide(&mut self) -> Slid {
        let mut out = Slid { cleared: self.slots.remove(0), flipped: Vec::new() };
        self.slots.push(Vec::new());
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let n = i as u8 + 1;
            for c in slot.iter_mut() {
                if c.face_up && c.flip_at == Some(n) {
                    c.face_up = false;
                    out.flipped.push(c.card.clone());
                }
            }
        }
        out
    }

    /// Clear every card (interlude step 2, L1343).
    pub fn clear(&mut self) -> Vec<TrackCard> {
        let out = self.slots.iter_mut().flat_map(std::mem::take).collect();
        out
    }

    /// Remove every status (Rest-round Recover, L355).
    pub fn clear_statuses(&mut self) -> Vec<Status> {
        let mut out = Vec::new();
        for slot in &mut self.slots {
            slot.retain(|c| match c.card {
                CardRef::Status(s) => {
                    out.push(s);
                    false
                }
                _ => true,
            });
        }
        out
    }
}
