// The table's talk: the party's proposals (a decision the book has the
// party take together is proposed by one player and taken once every
// player at the table agreed; one objection calls it off), and the chat
// (the party's lines for its seats, the spectators' for the spectators).
// PROTOCOL.md, `propose`/`agree`/`object`/`chat`; the `proposal` and
// `chat` frames. Chat lines are user text: only ever text nodes.

import { h } from "../../duel/dom.js";
import { seatName } from "./names.js";
import { joinNames } from "./actions.js";

/// An action with its keys sorted at every depth: the server hands the
/// proposed action back as it stores it (keys sorted), the legal list in
/// the engine's order.
export function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  return v;
}
export const canonJson = (v) => JSON.stringify(canon(v));

/// Someone at the table, for a sentence's start: "You" for the reader.
const who = (view, seat, you) => (seat === you && you != null ? "You" : seatName(view, seat));
const whoList = (view, seats, you) => joinNames((seats ?? []).map((s) => (s === you && you != null ? "you" : seatName(view, s))));

/// The standing proposal: who proposed what, who agreed, who may still
/// object; Agree and Object for a seat that has not agreed.
export function proposalBox(view, you, p, { onAgree, onObject }) {
  const text = p.words?.text || "a decision for the party";
  const mine = you != null && (p.agreed ?? []).includes(you);
  const forOther = p.seat != null && p.seat !== p.by ? ` for ${seatName(view, p.seat)}` : "";
  const head = p.by === you && you != null ? `You propose${forOther}: ` : `${seatName(view, p.by)} proposes${forOther}: `;
  const waiting = (p.waiting ?? []).filter((s) => !(p.agreed ?? []).includes(s));
  const parts = [
    h("p", { class: "proposal-head" }, head, h("b", {}, text)),
    h("p", { "data-test": "proposal-agreed" }, `Agreed: ${whoList(view, p.agreed, you) || "nobody yet"}.`),
    waiting.length
      ? h("p", { "data-test": "proposal-waiting", "data-seats": waiting.join(" ") },
        `Still to agree: ${whoList(view, waiting, you)}.`)
      : null,
  ];
  if (you == null) {
    parts.push(h("p", { class: "hint" }, "The party decides this together: it is done once every player agrees."));
  } else if (mine) {
    parts.push(h("p", { class: "hint" }, "You agreed. It is done once every player at the table agrees; any of them may object and call it off. To propose something else, press another of the party's options."));
  } else {
    parts.push(h("p", { class: "hint" }, "It is done once every player at the table agrees. Object to call it off, or press another of the party's options to propose that instead."),
      h("div", { class: "buttons" },
        h("button", { class: "primary", "data-test": "agree", "data-focus": "agree", onclick: onAgree }, `Agree: ${text}`),
        h("button", { "data-test": "object", "data-focus": "object", onclick: onObject }, "Object")));
  }
  return h("div", {
    class: "card proposal", "data-test": "proposal", "data-key": "proposal", role: "status",
    "data-by": p.by, "data-seat": p.seat ?? p.by, "data-type": p.action?.type ?? "", "data-action": JSON.stringify(p.action ?? null),
  }, h("h3", {}, "A proposal for the party"), parts);
}

/// The few seconds after an objection: who objected to what.
export function withdrawnBox(view, you, w) {
  return h("div", { class: "card proposal withdrawn", "data-test": "proposal-withdrawn", "data-key": "proposal-withdrawn", "data-by": w.by, role: "status" },
    h("p", {}, h("b", {}, `${who(view, w.by, you)} objected`), `: ${w.text} is called off.`),
    h("p", { class: "hint" }, "Anyone may propose again."));
}

const MUTE_KEY = (matchId) => `athlas.chat-muted.${matchId}`;
const MAX_LINES = 200;

/// The chat: its lines by number (a line comes once however often the
/// server sends it: after each welcome the latest 50 come again), the
/// line being sent, the last refusal, and the reader's mute.
export class Chat {
  constructor(matchId) {
    this.matchId = matchId;
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

  render(view, you, { onSend, onMute }) {
    const spectator = you == null;
    const sorted = [...this.lines.values()].sort((a, b) => a.n - b.n);
    const time = (at) => (at ? new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "");
    const name = (l) => (l.seat == null ? "a spectator" : seatName(view, l.seat, you));
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
        h("h3", {}, spectator ? "Spectators' chat" : "The party's chat"),
        h("button", {
          class: "small", "data-test": "chat-mute", "data-focus": "chat-mute", "aria-pressed": String(this.muted),
          onclick: () => onMute(!this.muted),
        }, this.muted ? "Show the chat" : "Mute the chat")),
      h("p", { class: "hint" }, spectator ? "Only other spectators read this; the party does not." : "Only the party's players read this; spectators do not."),
      this.muted
        ? h("p", { class: "hint", "data-test": "chat-muted" }, `The chat is muted on this page${sorted.length ? `: ${sorted.length} ${sorted.length === 1 ? "line" : "lines"} hidden` : ""}.`)
        : sorted.length ? lines : h("p", { class: "hint", "data-key": "chat-empty" }, "Nothing said yet."),
      h("form", { class: "chat-form", "data-key": "chat-form", onsubmit: send },
        h("input", {
          type: "text", maxlength: "300", "data-test": "chat-input", "data-focus": "chat-input", "data-key": "chat-input", autocomplete: "off",
          "aria-label": spectator ? "Say something to the spectators" : "Say something to the party",
          placeholder: spectator ? "Say something to the spectators" : "Say something to the party",
        }),
        h("button", { type: "submit", "data-test": "chat-send", "data-focus": "chat-send" }, "Send")),
      this.error ? h("p", { class: "chat-error", "data-test": "chat-error", "data-code": this.error.code, role: "alert" }, this.error.text) : null);
  }
}
