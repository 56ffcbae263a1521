// The duel's reference content (GET /api/games/duel/catalogue/...), card
// names and an Alpha's cost, life and broken creation restrictions, worked
// out in the browser as a guide while building (the server has the last
// word: its refusal is shown as it comes).

import { api } from "../../net.js";

export const KINDS = ["genus", "ability", "equipment", "spell"];
export const DI_MAX_CARDS = 4;
export const DI_MAX_POINTS = 8;

let catalogue = null; // {ac_cards, divine_interventions, basic_powers}
let presets = null;   // [{id, name, alphas: [[card ids]...], di_stack}]
let byId = new Map();
let loading = null;

export function loadCatalogue() {
  if (!loading) {
    loading = Promise.all([
      api("GET", "/api/games/duel/catalogue/cards"),
      api("GET", "/api/games/duel/catalogue/presets"),
    ]).then(([cards, p]) => {
      catalogue = cards;
      presets = p.presets;
      byId = new Map([...cards.ac_cards, ...cards.divine_interventions].map((c) => [c.id, c]));
    }, (e) => { loading = null; throw e; });
  }
  return loading;
}

export const cat = () => catalogue;
export const presetList = () => presets ?? [];
export const card = (id) => byId.get(id);
export const name = (id) => byId.get(id)?.name ?? String(id ?? "?").replaceAll("_", " ");
export const diPoints = (ids) => ids.reduce((n, id) => n + (card(id)?.divine_points ?? 0), 0);

/// The genus of a list of cards (its name names the Alpha), if any.
export function genusOf(ids) {
  return (ids ?? []).map(card).find((c) => c?.kind === "genus") ?? null;
}

/// Short stat line of an AC card: cost, life, hands, spell points, armor, range.
export function statLine(c) {
  const parts = [];
  if (c.cost !== undefined) parts.push(`cost ${c.cost}`);
  if (c.divine_points !== undefined) parts.push(`${c.divine_points} divine point${c.divine_points === 1 ? "" : "s"}`);
  if (c.life) parts.push(`life ${c.life}`);
  if (c.life_plus) parts.push(`life +${c.life_plus}`);
  if (c.hands) parts.push(`${c.hands} green hand${c.hands === 1 ? "" : "s"}`);
  if (c.needs_hands) parts.push(`${c.needs_hands} red hand${c.needs_hands === 1 ? "" : "s"}`);
  if (c.spell_points) parts.push(`${c.spell_points} spell points`);
  if (c.armor?.physical) parts.push(`${c.armor.physical} physical armor`);
  if (c.armor?.magical) parts.push(`${c.armor.magical} magical armor`);
  if (c.range !== undefined) parts.push(`range ${Array.isArray(c.range) ? c.range.join("-") : c.range}`);
  if (c.duration !== undefined) parts.push(`lasts ${c.duration} turn${c.duration === 1 ? "" : "s"}`);
  return parts.join(" · ");
}

/// An Alpha's cost, life pool, hands and spell points, and the creation
/// restrictions it breaks (the rulebook's three, numbered as in the book).
export function alphaStats(ids, others = new Set()) {
  const cs = ids.map(card).filter(Boolean);
  const sum = (f) => cs.reduce((n, c) => n + (f(c) ?? 0), 0);
  const out = {
    cost: sum((c) => c.cost),
    life: sum((c) => c.life), // "+" life values are not part of the pool
    green: sum((c) => c.hands),
    red: sum((c) => c.needs_hands),
    spellPoints: sum((c) => c.spell_points),
    spells: sum((c) => (c.kind === "spell" ? c.cost : 0)),
    broken: [],
  };
  if (!ids.length) return out;
  const genus = cs.filter((c) => c.kind === "genus").length;
  if (genus !== 1) out.broken.push({ rule: "genus_count", text: `Restriction 1: an Alpha must have exactly one genus card (it has ${genus})` });
  if (out.red > out.green) out.broken.push({ rule: "hands", text: `Restriction 2: more red hands than green hands (${out.red} red, ${out.green} green)` });
  if (out.spells > out.spellPoints) out.broken.push({ rule: "spell_points", text: `Restriction 3: spell cards cost ${out.spells} creation points but the Alpha has only ${out.spellPoints} spell points` });
  const seen = new Set();
  for (const id of ids) {
    if (seen.has(id)) out.broken.push({ rule: "duplicate", text: `${name(id)} is in this Alpha twice` });
    seen.add(id);
    if (others.has(id)) out.broken.push({ rule: "card_reused", text: `${name(id)} is in another Alpha: your set has one of each card` });
  }
  return out;
}

/// What adding card `id` to an Alpha would newly break (before it is added).
export function wouldBreak(ids, id, others) {
  const before = new Set(alphaStats(ids, others).broken.map((b) => b.rule));
  const after = alphaStats([...ids, id], others).broken;
  // A missing genus is not the new card's fault, unless it is a second genus.
  return after.filter((b) => !before.has(b.rule) && !(b.rule === "genus_count" && card(id)?.kind !== "genus"));
}
