// The party's proposals: a decision the book has the party take together
// is proposed by one player and taken once every player at the table
// agreed; one objection calls it off. PROTOCOL.md, `propose`/`agree`/
// `object`; the `proposal` frame. (The table's chat is web/talk.js.)

import { h } from "../../dom.js";
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
