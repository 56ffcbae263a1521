// A unit's card over the board: its name as the log names it, whose it
// is, its Alpha's life, its powers and state, the relics it holds. Shown
// while a mouse is over its token, or pinned by a tap (touch has no
// hover) until closed, tapped again or the unit is gone. Drawn from the
// view alone at every redraw, so it follows the game while it is open.

import { h } from "../../dom.js";
import { name, card, genusOf } from "./cards.js";
import { pos, key } from "./board.js";
import { unitName, seatName, hexName } from "./names.js";

/// A condition in words: {"type": "attack_bonus", "kind": "melee", "amount": 1}
/// → "attack bonus kind melee amount 1"; a nested value is told by its
/// values, never as JSON.
export function conditionWords(c) {
  if (typeof c === "string") return c.replaceAll("_", " ");
  const told = (x) => Array.isArray(x) ? x.map(told).join(", ")
    : x && typeof x === "object" ? Object.values(x).map(told).join(" ")
    : String(x).replaceAll("_", " ");
  return [told(c.type),
    ...Object.entries(c).filter(([k]) => k !== "type").map(([k, x]) => `${k.replaceAll("_", " ")} ${told(x)}`)].join(" ");
}

export class UnitCard {
  /// `redraw()` draws the page again after the card opened or closed.
  constructor(redraw) {
    this.redraw = redraw;
    this.id = null;      // the unit shown, or null
    this.pinned = false; // opened by a tap: stays until closed
  }

  /// The board's hooks (`boardSvg`'s `onUnit`).
  hooks() {
    return {
      enter: (ev, u) => { if (ev.pointerType === "mouse" && !this.pinned) this.show(u.id, false); },
      leave: (ev, u) => { if (ev.pointerType === "mouse" && !this.pinned && this.id === u.id) this.close(); },
      // A mouse has shown the card on hover; a touch or a pen pins it (the
      // tap goes on to the hex as well, so acting on the board is unchanged).
      tap: (ev, u) => {
        if (ev.pointerType === "mouse") return;
        if (this.pinned && this.id === u.id) this.close();
        else this.show(u.id, true);
      },
    };
  }

  show(id, pinned) {
    this.id = id;
    this.pinned = pinned;
    this.redraw();
  }

  close() {
    if (this.id === null) return;
    this.id = null;
    this.pinned = false;
    this.redraw();
  }

  /// The card for the view `v` as seat `me` (null: a spectator) reads it,
  /// or null when none is open. It sits in the board's corner away from
  /// the unit, so the token stays in sight.
  render(v, me) {
    const u = this.id === null ? null : v.units.find((x) => x.id === this.id);
    if (!u) { this.id = null; this.pinned = false; return null; }
    const xs = v.hexes.map((x) => pos(x.hex));
    const mid = (i) => (Math.min(...xs.map((p) => p[i])) + Math.max(...xs.map((p) => p[i]))) / 2;
    const [ux, uy] = pos(u.hex);
    const side = ux < mid(0) ? "at-right" : "at-left";
    const edge = uy < mid(1) ? "at-bottom" : "at-top";

    const alpha = v.players?.[u.owner]?.alphas?.[u.alpha];
    const cards = alpha?.design?.cards ?? [];
    const genus = genusOf(cards);
    const powers = cards.filter((id) => id !== genus?.id);
    const relics = u.holds_relics ? v.hexes.find((x) => key(x.hex) === key(u.hex))?.relics ?? 1 : 0;
    const dis = (v.active_dis ?? []).filter((d) => d.unit === u.id);
    const whose = u.owner === me ? "Yours" : seatName(u.owner);
    const acting = v.activation?.unit === u.id ? v.activation : null;
    const state = [
      acting ? `acting now: ${acting.m} m and ${acting.a} a left` : u.activated ? "activated this turn" : "not activated this turn",
      u.flying ? "flying" : null,
      u.exposed ? "exposed" : null,
      u.controller !== u.owner ? `controlled by ${u.controller === me ? "you" : seatName(u.controller)}` : null,
      ...(u.conditions ?? []).map(conditionWords),
      ...dis.map((d) => `under ${name(d.card)} (${d.owner === me ? "yours" : seatName(d.owner)})`),
    ].filter(Boolean);

    return h("div", {
      class: `card unit-card ${side} ${edge}${this.pinned ? " pinned" : ""} seat${u.owner}`, "data-test": "unit-card",
      "data-unit": u.id, "data-owner": u.owner, "data-pinned": String(this.pinned), role: "status",
    },
    h("h3", {}, h("span", { class: `shape alpha${u.alpha}` }), h("span", { "data-test": "unit-card-name" }, unitName(u.id, v)),
      this.pinned ? h("button", { class: "small close", "data-test": "unit-card-close", "data-focus": "unit-card-close", "aria-label": "close the unit's card",
        onclick: () => this.close() }, "×") : null),
    h("p", { class: "stats", "data-test": "unit-card-owner" },
      `${whose} · Alpha ${u.alpha + 1} · at ${hexName(u.hex)}`),
    h("p", { class: "stats", "data-test": "unit-card-life" },
      alpha?.life != null ? `Life ${alpha.life}/${alpha.max_life} (its Alpha's, shared by its units)` : "Life hidden",
      ` · armor left ${u.armor_left?.[0] ?? 0} physical, ${u.armor_left?.[1] ?? 0} magical`),
    h("p", { class: "stats", "data-test": "unit-card-relics", "data-relics": relics },
      relics ? `Holds ${relics} relic${relics > 1 ? "s" : ""}` : "Holds no relic"),
    powers.length ? h("p", { class: "stats", "data-test": "unit-card-powers" }, "Powers: ",
      powers.map((id) => `${name(id)}${card(id)?.kind ? ` (${card(id).kind})` : ""}`).join(", ")) : null,
    h("p", { class: "stats", "data-test": "unit-card-state" }, state.join(" · ")));
  }
}
