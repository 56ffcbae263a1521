// The table's chat, one for every game (the duel's two players, a
// Divinity party): the seats' lines for the seats, the spectators' for the
// spectators, as the server keeps them apart (PROTOCOL.md, the `chat`
// frames). Chat lines are user text: only ever text nodes, never markup.
// Each reader may mute it, per match, in this browser.

import { h } from "./dom.js";

/// What the chat says to each reader: a game names its table its own way
/// (Divinity's "party", the duel's opponent).
export const PARTY_WORDS = {
  seats: {
    title: "The party's chat",
    hint: "Only the party's players read this; spectators do not.",
    placeholder: "Say something to the party",
  },
  spectators: {
    title: "Spectators' chat",
    hint: "Only other spectators read this; the party does not.",
    placeholder: "Say something to the spectators",
  },
};

/// A refused line in words: the codes a chat line may meet (PROTOCOL.md,
/// `bad_chat`, `chat_too_fast`); any other keeps the server's message.
export function chatRefusal(code, message) {
  if (code === "bad_chat") return "That line cannot be sent: a chat line is plain text on one line, at most 300 characters.";
  if (code === "chat_too_fast") return "Too fast: after five lines, one line every 2 seconds. Wait a moment and send it again.";
  return message || code;
}

const MUTE_KEY = (matchId) => `athlas.chat-muted.${matchId}`;
const MAX_LINES = 200;

/// The chat: its lines by number (a line comes once however often the
/// server sends it: after each welcome the latest 50 come again), the
/// line being sent, the last refusal, and the reader's mute.
export class Chat {
  constructor(matchId, words = PARTY_WORDS) {
    this.matchId = matchId;
    this.words = words;
    this.lines = new Map();
    this.sending = null; // {id, text}
    this.error = null; // {code, text}
    try { this.muted = localStorage.getItem(MUTE_KEY(matchId)) === "1"; } catch { this.muted = false; }
    this.seen = 0; // lines drawn, to scroll to a new one
  }

  /// A `chat` frame; true when it is new.
  add(f) {
    if (typeof f.n !== "number" || typeof f.text !== "string") return false;
    if (this.sending && f.id === this.sending.id) this.sending.done = true;
    if (this.lines.has(f.n)) return false;
    this.lines.set(f.n, { n: f.n, seat: f.seat ?? null, text: f.text, at: f.at ?? null });
    if (this.lines.size > MAX_LINES) {
      const drop = [...this.lines.keys()].sort((a, b) => a - b).slice(0, this.lines.size - MAX_LINES);
      for (const n of drop) this.lines.delete(n);
    }
    return true;
  }

  mute(on) {
    this.muted = on;
    try {
      if (on) localStorage.setItem(MUTE_KEY(this.matchId), "1");
      else localStorage.removeItem(MUTE_KEY(this.matchId));
    } catch { /* private mode: for this page only */ }
  }

  /// The chat as `you` (a seat, or null for a spectator) reads it;
  /// `nameOf(seat)` names a seat's speaker.
  render(you, { nameOf, onSend, onMute }) {
    const words = you == null ? this.words.spectators : this.words.seats;
    const sorted = [...this.lines.values()].sort((a, b) => a.n - b.n);
    const time = (at) => (at ? new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "");
    const name = (l) => (l.seat == null ? "a spectator" : nameOf(l.seat));
    const lines = this.muted ? null : h("ol", { class: "chat-lines", "data-key": "chat-lines", "aria-live": "polite" },
      sorted.map((l) => h("li", { "data-test": "chat-line", "data-n": l.n, "data-seat": l.seat ?? "", "data-key": `chat:${l.n}`, class: l.seat != null && l.seat === you ? "own" : undefined },
        h("span", { class: "chat-time" }, time(l.at)), " ",
        h("b", { class: "chat-who" }, name(l)), ": ",
        // The line is the player's text, as text: never markup.
        h("span", { class: "chat-text" }, l.text))));
    const send = (ev) => {
      ev.preventDefault();
      const input = ev.currentTarget.querySelector("[data-test=chat-input]") ?? ev.currentTarget.closest("form")?.querySelector("[data-test=chat-input]");
      const text = (input?.value ?? "").trim();
      if (!text) { input?.focus(); return; }
      onSend(text);
    };
    return h("div", { class: "card chat", "data-test": "chat", "data-key": "chat", "data-muted": String(this.muted) },
      h("div", { class: "chat-head" },
        h("h3", {}, words.title),
        h("button", {
          class: "small", "data-test": "chat-mute", "data-focus": "chat-mute", "aria-pressed": String(this.muted),
          onclick: () => onMute(!this.muted),
        }, this.muted ? "Show the chat" : "Mute the chat")),
      h("p", { class: "hint" }, words.hint),
      this.muted
        ? h("p", { class: "hint", "data-test": "chat-muted" }, `The chat is muted on this page${sorted.length ? `: ${sorted.length} ${sorted.length === 1 ? "line" : "lines"} hidden` : ""}.`)
        : sorted.length ? lines : h("p", { class: "hint", "data-key": "chat-empty" }, "Nothing said yet."),
      h("form", { class: "chat-form", "data-key": "chat-form", onsubmit: send },
        h("input", {
          type: "text", maxlength: "300", "data-test": "chat-input", "data-focus": "chat-input", "data-key": "chat-input", autocomplete: "off",
          "aria-label": words.placeholder,
          placeholder: words.placeholder,
        }),
        h("button", { type: "submit", "data-test": "chat-send", "data-focus": "chat-send" }, "Send")),
      this.error ? h("p", { class: "chat-error", "data-test": "chat-error", "data-code": this.error.code, role: "alert" }, this.error.text) : null);
  }
  /// A `chat` frame as a page takes it: a new line, or the server's copy
  /// of the line this page sent (its input then empties). True when the
  /// chat is to be drawn again.
  heard(f, root) {
    const fresh = this.add(f);
    if (!this.sending?.done) return fresh;
    const input = root.querySelector("[data-test=chat-input]");
    if (input && input.value.trim() === this.sending.text) input.value = "";
    this.sending = null;
    this.error = null;
    return true;
  }

  /// An `error` frame answering the line in flight, said in `words`;
  /// false when it answers something else.
  refused(f, words) {
    if (f.id == null || this.sending?.id !== f.id) return false;
    this.error = { code: f.code, text: words };
    this.sending = null;
    return true;
  }

  /// After a redraw: a new line comes into view, unless the reader
  /// scrolled up to read an older one.
  keepInView(root) {
    const lines = root.querySelector(".chat-lines");
    if (lines && this.lines.size !== this.seen) {
      if (this.atBottom !== false) lines.scrollTop = lines.scrollHeight;
      this.seen = this.lines.size;
    }
    if (lines && !lines._watched) {
      lines._watched = true;
      lines.addEventListener("scroll", () => { this.atBottom = lines.scrollTop + lines.clientHeight >= lines.scrollHeight - 8; });
    }
  }
}
