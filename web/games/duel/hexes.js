// Choosing several hexes for one legal entry (protocol/DUEL.md, "Choosing
// several hexes"): Flood's "up to 4 hexes anywhere" (L1469-1471) and
// Tsunami's growth, each water hex of the body adding at most one hex next
// to it (L1729-1734). The entry's `target.choose` says which hexes may be
// chosen; the player clicks them on the board (the ones still allowed
// highlighted, the chosen ones marked, the count shown), then "Cast" sends
// the entry with the chosen hexes in `target.hexes` and without `choose`;
// "Cancel" or Escape drops the choice.

import { h } from "../../dom.js";
import { key } from "./board.js";

const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const adjacent = (a, b) => DIRS.some(([dq, dr]) => a[0] + dq === b[0] && a[1] + dr === b[1]);

/// Whether each of `hexes` can be paired with a different hex of `body`
/// next to it (augmenting paths, as the engine checks Tsunami).
export function matched(hexes, body) {
  const owner = body.map(() => -1);
  const augment = (i, seen) => {
    for (let j = 0; j < body.length; j++) {
      if (seen[j] || !adjacent(hexes[i], body[j])) continue;
      seen[j] = true;
      if (owner[j] < 0 || augment(owner[j], seen)) { owner[j] = i; return true; }
    }
    return false;
  };
  return hexes.every((_, i) => augment(i, body.map(() => false)));
}

/// Whether `hexes` may be chosen so far (every rule but the least count):
/// distinct hexes of `from`, at most `up_to`, paired with `next_to_distinct`.
export function fits(c, hexes) {
  const keys = hexes.map(key);
  const from = new Set(c.from.map(key));
  return new Set(keys).size === keys.length && hexes.length <= c.up_to && keys.every((k) => from.has(k))
    && (!c.next_to_distinct?.length || matched(hexes, c.next_to_distinct));
}

/// Whether `hexes` is a choice the entry offers (the engine's `HexChoice::allows`).
export function allows(c, hexes) {
  return hexes.length >= (c.at_least ?? 0) && fits(c, hexes);
}

/// The action to send for `entry` with `hexes` chosen.
export function sent(entry, hexes) {
  const target = { ...entry.target, hexes };
  delete target.choose;
  return { ...entry, target };
}

/// The choice under way: `start` it with a listed entry, feed it the
/// board's clicks, draw its bar in place of the mode bar.
/// `send(action)` sends the chosen action; `render()` redraws.
export class HexChooser {
  constructor({ send, render }) {
    this.send = send;
    this.render = render;
    this.entry = null;
    this.chosen = [];
    this.onKey = (ev) => { if (ev.key === "Escape" && this.entry) { this.cancel(); this.render(); } };
  }

  get active() { return this.entry !== null; }

  /// Begin choosing for `a` if it offers a choice of hexes (else false).
  /// `at` (a hex or its key), the hex clicked to get here, is chosen first
  /// when the entry names no hex of its own and allows it.
  start(a, at) {
    if (!a?.target?.choose) return false;
    this.entry = a;
    this.chosen = [];
    const hx = typeof at === "string" ? at.split(",").map(Number) : at;
    if (hx && a.target.hex === undefined && this.canAdd(hx)) this.chosen.push(hx);
    document.addEventListener("keydown", this.onKey);
    return true;
  }

  cancel() {
    this.entry = null;
    this.chosen = [];
    document.removeEventListener("keydown", this.onKey);
  }

  /// Drops the choice when its entry is no longer listed (the game moved on).
  sync(v) {
    if (!this.entry) return;
    const listed = JSON.stringify(this.entry);
    if (!(v.legal ?? []).some((a) => JSON.stringify(a) === listed)) this.cancel();
  }

  has(hx) { return this.chosen.some((x) => key(x) === key(hx)); }

  canAdd(hx) { return !this.has(hx) && fits(this.entry.target.choose, [...this.chosen, hx]); }

  /// A click on the board: a chosen hex is taken back, an allowed one chosen.
  click(hx) {
    if (this.has(hx)) this.chosen = this.chosen.filter((x) => key(x) !== key(hx));
    else if (this.canAdd(hx)) this.chosen.push(hx);
  }

  /// The board's highlights: "chosen" on the chosen hexes, "target" on the
  /// ones that may still be added.
  hot(v) {
    this.sync(v);
    const hot = new Map();
    if (!this.entry) return hot;
    for (const x of this.chosen) hot.set(key(x), new Set(["chosen"]));
    if (this.chosen.length < this.entry.target.choose.up_to) {
      for (const x of this.entry.target.choose.from) if (this.canAdd(x)) hot.set(key(x), new Set(["target"]));
    }
    return hot;
  }

  cast() {
    const c = this.entry?.target.choose;
    if (!c || !allows(c, this.chosen)) return;
    const a = sent(this.entry, this.chosen);
    this.cancel();
    this.send(a);
  }

  /// The bar over the board while choosing: what, how many, Cast, Cancel.
  bar(v, say) {
    const c = this.entry.target.choose;
    const n = this.chosen.length;
    const least = c.at_least ?? 0;
    const range = least > 1 ? `${least} to ${c.up_to}` : `up to ${c.up_to}`;
    return h("div", { class: "mode-bar", "data-test": "mode", "data-mode": "hexes", "data-chosen": n, "data-up-to": c.up_to },
      h("span", {}, `${say(this.entry, v)}: click ${range} highlighted hex${c.up_to === 1 ? "" : "es"}`,
        c.next_to_distinct?.length ? ", each next to a different water hex of the body" : "", "."),
      h("span", { class: "count", "data-test": "hexes-count", "aria-live": "polite" }, `${n} of ${c.up_to} chosen`),
      h("button", { class: "primary", "data-test": "cast-hexes", "data-focus": "cast-hexes",
        disabled: allows(c, this.chosen) ? undefined : true, onclick: () => this.cast() }, "Cast"),
      h("button", { class: "small", "data-test": "cancel-mode", "data-focus": "cancel-mode",
        onclick: () => { this.cancel(); this.render(); } }, "Cancel"));
  }
}
