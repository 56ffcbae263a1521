// The duel's table chat (web/talk.js's Chat on a duel page): the two
// players' channel for the seats, the spectators' for spectators (the
// server keeps them apart: spectators never coach a player), speakers by
// their display names, lines as text only, a mute per reader.

import { Chat, chatRefusal } from "../../talk.js";
import { seatName } from "./names.js";

const DUEL_WORDS = {
  seats: {
    title: "Table chat",
    hint: "Only the two players read this; spectators do not.",
    placeholder: "Say something to your opponent",
  },
  spectators: {
    title: "Spectators' chat",
    hint: "Only other spectators read this; the players do not.",
    placeholder: "Say something to the spectators",
  },
};

/// The chat of duel `matchId` on `page`, sending through `conn`;
/// `redraw()` asks the page to draw again.
export function duelChat(matchId, conn, page, redraw) {
  const chat = new Chat(matchId, DUEL_WORDS);

  const send = (text) => {
    chat.error = null;
    const id = conn.send({ type: "chat", text });
    if (id == null) chat.error = { code: "not_connected", text: "Not connected: wait for the connection to come back, then send it again." };
    else chat.sending = { id, text };
    redraw();
  };

  return {
    /// A frame for the chat: true when it was one (a line, or the refusal
    /// of the line in flight) and was taken.
    frame(f) {
      if (f.type === "chat") {
        if (chat.heard(f, page)) redraw();
        return true;
      }
      if (f.type === "error" && chat.refused(f, chatRefusal(f.code, f.message))) {
        redraw();
        return true;
      }
      return false;
    },

    /// The chat card as seat `you` (null: a spectator) reads it.
    render(you) {
      const nameOf = (s) => (s === you ? `${seatName(s)} (you)` : seatName(s));
      return chat.render(you, { nameOf, onSend: send, onMute: (on) => { chat.mute(on); redraw(); } });
    },

    /// After a redraw: the newest line in view.
    drawn() { chat.keepInView(page); },
  };
}
