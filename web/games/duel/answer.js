// The duel's Answer box: a Divine Intervention cast at this seat, or a
// response window open for it, told in the engine's words (the log's line
// for the cast or the activation that opened the window), with every DI
// answer it may cast and Pass side by side, and the window's timer. It sits
// at the top of the play area, beside the board (style.css, `.alerts`).
//
// Passing automatically: the server passes for a seat that can cast
// nothing there (protocol/DUEL.md, "Passing automatically"), a moment
// later, in the words of any pass. Only this page knows it did not send
// that pass, so it says so here ("Passed automatically: nothing to cast").

import { h } from "../../dom.js";
import { name, card } from "./cards.js";
import { seatName, target, unitName } from "./names.js";

/// Whether the game waits for `seat`'s answer in `v`: a DI cast at it, or
/// a response window open for it.
export function answering(v, seat) {
  if (seat === null || seat === undefined || !v) return false;
  if (v.pending_di) return v.pending_di[0] !== seat && (v.waiting_for ?? []).includes(seat);
  return v.window === seat;
}

/// Whether the seat's list holds a DI it may cast now.
export function canCast(v) {
  return (v.legal ?? []).some((a) => a.type === "cast_di");
}

/// The seat's own setting: on unless its view says it turned it off.
export function passesWhenUnable(v, seat) {
  return v?.players?.[seat]?.pass_when_unable !== false;
}

/// Remembers, from one frame to the next, whether the seat was waited for
/// with nothing to cast and whether this page sent the pass: a window that
/// closed by the seat's pass that this page did not send was the server's.
export class AutoPassNote {
  constructor() {
    this.waiting = null; // {seq} while the seat is waited for with nothing to cast
    this.sent = false;   // this page sent a pass (or timed-out) since
    this.note = null;    // {seq}: the update that told the server's pass
  }

  /// An action this page sends.
  sending(action) {
    if (action?.type === "pass") this.sent = true;
  }

  /// A view the page now holds (after a welcome or an update `f`).
  frame(v, seat, f) {
    const mine = answering(v, seat);
    if (f?.type === "update" && this.waiting && !mine) {
      const passed = (f.events ?? []).some((e) => e.event === "passed" && e.seat === seat);
      if (passed && !this.sent) this.note = { seq: f.seq };
    }
    if (mine && !canCast(v) && passesWhenUnable(v, seat)) {
      if (!this.waiting) { this.waiting = { seq: f?.seq }; this.sent = false; }
    } else {
      this.waiting = null;
      this.sent = false;
    }
    if (mine) this.note = null;
  }
}

/// The Answer box, or `null` when nothing waits for an answer. `ctx`:
/// `{ st, log, say(a, v), button(a, v, extra), castMode(), act(a) }`.
export function answerBox(v, ctx) {
  const { st } = ctx;
  const pend = v.pending_di;
  const note = ctx.note?.note;
  if (v.window === null && !pend && !v.casualty && !v.relic_choice) {
    return note ? h("div", { class: "card window passed", "data-test": "auto-passed", role: "status" },
      h("p", {}, "Passed automatically: nothing to cast. ", toggle(v, st.seat, ctx.act))) : null;
  }
  const legal = v.legal ?? [];
  const mine = answering(v, st.seat);
  const parts = [];
  if (pend) {
    const [caster, c] = pend;
    const line = ctx.log.latest("di_cast")
      ?? `${caster === st.seat ? "You" : seatName(caster)} cast ${name(c)}${v.pending_target ? target(v.pending_target, v, st.seat) : ""}`;
    parts.push(h("p", { class: "what", "data-test": "pending-di", "data-caster": caster, "data-card": c },
      h("strong", {}, line), h("span", { class: "text" }, ` — ${card(c)?.text ?? ""}`)));
  } else if (v.window !== null) {
    const ended = ctx.log.latest("activation_ended")
      ?? (v.activation ? `${unitName(v.activation.unit, v)} ended its activation` : null);
    parts.push(h("p", { class: "what", "data-test": "window-reason" }, ended ? h("strong", {}, ended) : null,
      mine ? " You may answer with your top Divine Intervention." : ` ${seatName(v.window)} may answer with a Divine Intervention.`));
  }
  if (v.casualty) parts.push(h("p", { "data-test": "casualty" }, v.casualty.seat === st.seat ? "Choose which of your units dies (highlighted)." : `${seatName(v.casualty.seat)} chooses a casualty.`));
  if (v.relic_choice) parts.push(h("p", { "data-test": "relic-choice" }, v.relic_choice.seat === st.seat ? `Does ${unitName(v.relic_choice.unit, v)} take its relic along?` : `${seatName(v.relic_choice.seat)} decides whether the relic goes along.`));

  const answers = [];
  if (mine) {
    const casts = legal.filter((a) => a.type === "cast_di");
    // A few casts are buttons of their own; many (a DI aimed at hexes)
    // are picked on the board, from one button.
    if (casts.length && casts.length <= 4) answers.push(...casts.map((a) => ctx.button(a, v, { class: "primary" })));
    else if (casts.length) {
      const top = v.players[st.seat]?.di_stack?.[0];
      answers.push(h("button", { class: "primary", "data-test": "cast-di", "data-card": top, "data-focus": "cast-di", onclick: ctx.castMode },
        `Cast ${name(top)}: pick one of ${casts.length} targets on the board`));
    }
  }
  answers.push(...legal.filter((a) => a.type === "pass" || a.type === "carry_relic")
    .map((a) => ctx.button(a, v, { class: a.type === "carry_relic" || !canCast(v) ? "primary" : "" })));
  const unable = mine && !canCast(v) && legal.some((a) => a.type === "pass");
  return h("div", { class: `card window${mine ? " mine" : ""}`, "data-test": "window", "data-seat": v.window ?? "", "data-answering": String(mine),
    role: "region", "aria-label": "Answer" },
    h("h3", {}, mine ? "Your answer" : "Answer", " ", h("span", { class: "timer", "data-test": "timer" })),
    ...parts,
    answers.length ? h("div", { class: "answers", "data-test": "answers" }, ...answers) : null,
    unable ? h("p", { class: "hint", "data-test": "auto-pass-note" },
      passesWhenUnable(v, st.seat) ? "Nothing you can cast here: passing for you in a moment. " : "Nothing you can cast here. ",
      toggle(v, st.seat, ctx.act)) : null);
}

/// The seat's switch for passing automatically when it can cast nothing
/// (the server keeps it with the match: it holds with the page closed).
export function toggle(v, seat, act) {
  if (seat === null || v.phase?.phase !== "command") return null;
  return h("label", { class: "auto-pass" },
    h("input", { type: "checkbox", "data-test": "pass-when-unable", "data-focus": "pass-when-unable",
      checked: passesWhenUnable(v, seat) ? true : undefined,
      onchange: (ev) => act({ type: "set_pass_when_unable", on: ev.target.checked }) }),
    " pass for me when I can cast nothing");
}
