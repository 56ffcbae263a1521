// The interlude (L1340-1375): each Origin's level-up, picked from the
// choices the server lists; the Merchant with the party's gold, the wares
// shown, and buying, selling and restocking as the legal list allows;
// setting out. Only listed actions are offered, each in the server's words.

import { h } from "../../dom.js";
import { seatName, fallback } from "./names.js";
import { cardChip } from "./chips.js";

/// The action types this pane draws (not among the plain action buttons).
export const INTERLUDE = new Set(["level_up", "visit_merchant", "restock", "buy", "sell", "finish_interlude"]);

/// `entries`: the frame's legal actions (actions.js `entriesOf`);
/// `st`: {onAct(entry), levelPick: {seat: index}, onLevelPick(seat, index)}.
export function interludePane(view, entries, you, st) {
  const il = view.phase;
  const listed = (type) => entries.filter((e) => e.action.type === type);
  const button = (testId, e, extra = {}) => h("button", {
    "data-test": testId, "data-seat": e.seat, "data-type": e.action.type, "data-action": e.json,
    "data-focus": `il:${e.key}`, "data-focus-group": "actions", title: e.warn ?? undefined,
    onclick: () => st.onAct(e), ...extra,
  }, e.text);
  const parts = [h("h3", {}, `Interlude before ${fallback(il.to)}`),
    h("p", { class: "outcome-text" }, view.front?.outcome ?? "The party has found its way out."),
    h("p", { class: "hint" }, il.level_up
      ? "Every Origin levels up; the Merchant trades; then the party sets out."
      : "The Merchant trades; then the party sets out.")];

  // Level-ups: one choice per Origin that has one to make (a seat sees its
  // own, and any seat handed to it).
  if (il.level_up) {
    const bySeat = new Map();
    for (const e of listed("level_up")) { if (!bySeat.has(e.seat)) bySeat.set(e.seat, []); bySeat.get(e.seat).push(e); }
    const rows = (view.origins ?? []).map((o, seat) => {
      const done = il.leveled?.[seat];
      const options = bySeat.get(seat);
      const head = `${seatName(view, seat, you)}: level ${o.level}${done ? ", levelled up" : ""}`;
      if (!options) {
        return h("li", { "data-test": "level-up-seat", "data-seat": seat, "data-done": String(!!done) }, head, done ? "" : " (choosing)");
      }
      const at = Math.min(st.levelPick?.[seat] ?? 0, options.length - 1);
      const chosen = options[at]?.action;
      const choice = h("select", {
        "data-test": "level-up-choice", "data-seat": seat, "data-focus": `lvl:${seat}`, "aria-label": `${seatName(view, seat)}'s level-up`,
        onchange: (ev) => st.onLevelPick(seat, Number(ev.target.value)),
      }, options.map((e, i) => h("option", { value: i, "data-action": e.json, selected: i === at ? true : undefined }, e.text)));
      return h("li", { "data-test": "level-up-seat", "data-seat": seat, "data-done": "false" }, head, " ", choice, " ",
        h("button", {
          class: "primary", "data-test": "level-up-do", "data-seat": seat, "data-focus": `lvl-do:${seat}`,
          // The select as it is in the page now (a redraw patches it).
          onclick: (ev) => {
            const live = ev.currentTarget.closest("li")?.querySelector("[data-test=level-up-choice]");
            const e = options[Number(live?.value ?? at)] ?? options[at];
            if (e) st.onAct(e);
          },
        }, "Level up"),
        chosen ? h("div", { class: "level-up-cards", "data-test": "level-up-cards" },
          "Learns: ", cardChip(chosen.learn), chosen.talent ? [" · talent: ", cardChip(chosen.talent)] : null) : null);
    });
    parts.push(h("div", { "data-test": "level-up" }, h("h4", {}, "Level up"), h("ul", { class: "list" }, rows)));
  }

  // The Merchant.
  const buys = listed("buy");
  const merchant = [h("h4", {}, "The Merchant"), h("p", { "data-test": "gold", "data-gold": view.gold }, `The party has ${view.gold} gold.`)];
  if (!il.merchant_open) {
    const visits = listed("visit_merchant");
    merchant.push(h("p", {}, visits.length ? "To see the wares, the party pays the level of an equipment deck in gold:" : "The party cannot pay the Merchant's fee now."),
      h("div", { class: "buttons" }, visits.map((e) => button("merchant-visit", e))));
  } else {
    merchant.push(h("ul", { class: "list", "data-test": "wares" }, (il.offer ?? []).map((item) => {
      const price = view.merchant?.buy?.[item];
      return h("li", { "data-test": "ware", "data-item": item, "data-price": price },
        cardChip(item, { bold: true }), " ", price != null ? `(${price} gold) ` : "",
        buys.filter((e) => e.action.item === item).map((e) => button("buy", e)));
    })));
    if (!(il.offer ?? []).length) merchant.push(h("p", {}, "Nothing on show."));
    const restocks = listed("restock");
    if (restocks.length) merchant.push(h("p", {}, "Restock: ", restocks.map((e) => button("restock", e))));
    const sells = listed("sell");
    if (sells.length) merchant.push(h("div", {}, h("p", {}, "Sell an item for half its cost:"), h("div", { class: "buttons" }, sells.map((e) => button("sell", e)))));
  }
  parts.push(h("div", { "data-test": "merchant", "data-open": String(!!il.merchant_open) }, merchant));
  const finish = listed("finish_interlude")[0];
  if (finish) parts.push(button("finish-interlude", finish, { class: "primary" }));
  else if (il.level_up && il.leveled?.some((d) => !d)) parts.push(h("p", {}, "The party sets out once every Origin has levelled up."));
  return h("div", { class: "card interlude", "data-test": "interlude", "data-to": il.to }, parts);
}
