// A card's name with its text: the name shows, the text is its tooltip
// and opens under it on a click (a <details>, kept open across redraws).

import { h } from "../../dom.js";
import { cat, skillText, itemText, talentText, statusText, ENVIRONMENTS } from "./catalogue.js";
import { cardName, statusName, envName } from "./names.js";

/// The text of any card an Origin holds, by what the catalogue says it is.
export function cardText(id) {
  const c = cat();
  if (c?.skills.has(id)) return skillText(id);
  if (c?.items.has(id) || c?.runes.has(id)) return itemText(id);
  if (c?.talents.has(id)) return talentText(id);
  return "";
}

function chip(kind, id, name, text, { bold = false, extra = null, cls = "" } = {}) {
  const label = bold ? h("b", {}, name) : name;
  // The key names the tag: a redraw never patches a plain name into a
  // <details> (the catalogue may come in after the first drawing).
  if (!text) return h("span", { class: `chip ${cls}`.trim(), "data-test": "card-info", "data-kind": kind, "data-card": id, "data-key": `chip:${kind}:${id}` }, label, extra);
  return h("details", { class: `chip ${cls}`.trim(), "data-test": "card-info", "data-kind": kind, "data-card": id, "data-key": `chip-text:${kind}:${id}` },
    h("summary", { title: text }, label, extra),
    h("span", { class: "chip-text" }, text));
}

/// Any name with a text of its own (an Origin's special ability).
export function textChip(kind, id, name, text, opts = {}) {
  return chip(kind, id, name, text, opts);
}

/// A skill, item, rune or talent.
export function cardChip(id, opts = {}) {
  const c = cat();
  const kind = c?.skills.has(id) ? "skill" : c?.items.has(id) ? "item" : c?.runes.has(id) ? "rune" : c?.talents.has(id) ? "talent" : "card";
  return chip(kind, id, cardName(id), cardText(id), opts);
}

/// A status, with how long it lasts if known.
export function statusChip(id, extra = null) {
  return chip("status", id, statusName(id), statusText(id), { extra, cls: "status" });
}

export function envChip(id) {
  return chip("environment", id, envName(id), ENVIRONMENTS[id]?.text ?? "", { cls: "env" });
}

/// A list of chips separated by spaces, or `none` in words.
export function chips(ids, make = cardChip, none = "none") {
  if (!ids?.length) return h("span", { class: "hint" }, none);
  return h("span", { class: "chips" }, ids.map((id, i) => [i ? " " : null, make(id)]));
}
