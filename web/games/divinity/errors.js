// The server's refusals in words a player reads: the codes whose message
// names seats or ids get a sentence of their own; any other keeps the
// server's message.

const WORDS = {
  origin_taken: "Another player already plays that Origin: choose another.",
  origins_locked: "Origins are chosen before the first location only.",
  not_leader: "Only the party's leader may decide that.",
  not_your_turn: "It is not your turn to do that.",
  not_your_seat: "That seat is not yours to play.",
  others_acted: "Someone else has acted since: your last action stands.",
  revealed: "That action showed something new (a die, a card): it cannot be taken back.",
  nothing_to_take_back: "There is nothing of yours to take back.",
  cannot_hand: "That seat cannot be handed now.",
  not_ready_for_next: "The party cannot set out yet.",
  match_full: "Every seat of this party is taken.",
  bad_chat: "That line cannot be sent: a chat line is plain text on one line, at most 300 characters.",
  chat_too_fast: "Too fast: after five lines, one line every 2 seconds. Wait a moment and send it again.",
  no_proposal: "There is no proposal any more: it was taken, called off, or the table moved on.",
  not_legal: "The party cannot take that now.",
  not_a_party_decision: "The party does not decide that together here: press it again to do it.",
  not_seated: "Spectators cannot take part in the party's decisions.",
};

export function sayError(code, message) {
  return WORDS[code] ?? message ?? code;
}
