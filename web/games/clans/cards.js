// The clan battle's cards, as the server's public catalogue has them
// (`GET /api/games/clans/catalogue/cards`, CLANS.md "Catalogue"), and their
// texts in words. The catalogue lives in memory only: a page puts on screen
// the cards the view shows it (its own hand, what is on the field, what the
// log names), never another player's unplayed cards.

import { api } from "../../net.js";

let cat = null; // { clans: Map id -> clan, cards: Map id -> card (with .clan) }
let loading = null;

export function loadCatalogue() {
  if (!loading) {
    loading = Promise.all([
      api("GET", "/api/games/clans/catalogue/cards"),
      api("GET", "/api/games/clans/catalogue/battlemaps").catch(() => null),
    ]).then(([cards, maps]) => {
      const clans = new Map();
      const byId = new Map();
      for (const c of cards.clans ?? []) {
        clans.set(c.id, c);
        for (const k of c.cards ?? []) byId.set(k.id, { ...k, clan: c.id });
      }
      const fields = new Map((maps?.battlefields ?? []).map((b) => [b.id, b.name ?? b.id]));
      cat = { clans, cards: byId, fields };
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

export const loaded = () => cat !== null;
export const card = (id) => cat?.cards.get(id) ?? null;
export const cardName = (id) => card(id)?.name ?? "a card";
export const clanName = (id) => cat?.clans.get(id)?.name ?? { sacred_cross: "Sacred Cross", crimson_nobles: "Crimson Nobles" }[id] ?? "a clan";
export const clanIds = () => (cat ? [...cat.clans.keys()] : ["sacred_cross", "crimson_nobles"]);
export const clanStatus = (id) => STATUS[cat?.clans.get(id)?.status] ?? "";
export const fieldName = (id) => cat?.fields.get(id) ?? { river_valley: "River Valley", highland_pass: "Highland Pass" }[id] ?? id;
export const fieldIds = () => (cat?.fields.size ? [...cat.fields.keys()] : ["river_valley", "highland_pass"]);

const STATUS = { break: "BREAK", poison: "POISON" };
const STAT = { atk: "ATK", spd: "SPD", range: "Range", hp: "HP" };
const CLASS = { stealth: "Stealth", defense: "Defense", ranged: "Ranged", warrior: "Warrior", mystic: "Mystic" };
const TIMING = { pt: "PT", ot: "OT", permanent: "permanent" };
const TYPE = { ally: "Ally", homebase: "Homebase", equipment: "Equipment", item: "Item", runic_art: "Runic art", terrain: "Terrain effect" };
export const STATUS_TEXT = {
  break: "BREAK: SPD at most 1, 1 damage at the start of every turn, until cured",
  poison: "POISON: 2 damage at the start of every turn, until cured",
};
const TERRAIN = {
  climb_mountains: "your allies may climb mountains (entering one ends the move; +1 ATK in combat there)",
  walk_on_water: "your allies may walk on water (-1 SPD after landing, as in a forest)",
  forest_stride: "no forest penalty for your allies (every step still costs 1)",
};
export const terrainWords = (e) => TERRAIN[e] ?? e;
export const statusName = (s) => STATUS[s] ?? s;
export const className = (c) => CLASS[c] ?? c;
export const typeName = (t) => TYPE[t] ?? t;

const withStatus = (s) => (s ? ` and ${STATUS[s] ?? s}` : "");

function abilityText(a) {
  const e = a.effect ?? {};
  let what;
  switch (e.kind) {
    case "initiative": what = "strikes first in combat"; break;
    case "counter_any_range": what = "counter-attacks from any range"; break;
    case "strike": what = `strikes an enemy in Range with ATK${e.bonus ? ` +${e.bonus}` : ""}${withStatus(e.status)}, no counter-attack`; break;
    case "bolt": what = `${e.damage} damage to an enemy within ${e.range}${withStatus(e.status)}`; break;
    case "heal": what = `heals ${e.amount} HP on an ally within ${e.range}`; break;
    case "cure": what = `cures an ally within ${e.range} of BREAK and POISON`; break;
    default: what = "";
  }
  const cost = a.timing === "permanent" ? "" : `, ${a.sp} SP`;
  return `${a.name} (${TIMING[a.timing] ?? a.timing}${cost}): ${what}`;
}

function itemText(e) {
  switch (e?.kind) {
    case "heal": return `heals ${e.amount} HP on one of your figures`;
    case "cure": return "cures one of your figures of BREAK and POISON";
    case "damage": return `${e.amount} damage to any enemy${withStatus(e.status)}`;
    case "boost": return `+${e.amount} ${STAT[e.stat] ?? e.stat} on one of your figures ${e.lasts === "turn" ? "until your turn ends" : "until it has taken its turn"}`;
    default: return "";
  }
}

/// A card's stats line ("Ally · rank 2 Ranged · 5 HP · 2 ATK · 2 SPD · Range 3").
export function statLine(c) {
  if (!c) return "";
  const parts = [typeName(c.type)];
  if (c.type === "ally") {
    parts.push(`${c.god ? "God" : `rank ${c.rank}`} ${className(c.class)}`, `${c.hp} HP`, `${c.atk} ATK`, `${c.spd} SPD`, `Range ${c.range}`);
  } else if (c.type === "equipment") {
    const b = ["hp", "atk", "spd", "range"].filter((s) => c[s]).map((s) => `+${c[s]} ${STAT[s]}`);
    if (b.length) parts.push(b.join(", "));
  }
  return parts.join(" · ");
}

/// A card's cost ("4 SP", "2 SP + 1 EXP"; an ally's EXP is what its defeat earns).
export function costLine(c) {
  if (!c || c.type === "homebase") return "";
  if (c.type === "ally") return c.god ? `on the field from the start; its fall is defeat` : `summon: ${c.sp} SP · defeated: ${c.exp} EXP to the enemy`;
  const cost = `${c.sp} SP${c.exp ? ` + ${c.exp} EXP` : ""}`;
  return c.type === "equipment" ? `equip: ${cost} · assimilate for ${c.assimilate} SP` : cost;
}

/// A card's rules text in words.
export function cardText(c) {
  if (!c) return "";
  switch (c.type) {
    case "ally": {
      const t = (c.abilities ?? []).map(abilityText);
      if (c.aura) t.push(`Aura: +${c.aura.amount} ${STAT[c.aura.stat] ?? c.aura.stat} to your allies within ${c.aura.radius}`);
      return t.join(". ");
    }
    case "equipment": return "Equipped on one of your figures (one each), or assimilated for SP (once a turn).";
    case "item": return `Used once: ${itemText(c.effect)}.`;
    case "runic_art": return `Cast by a ${className(c.classes?.[0])} and a ${className(c.classes?.[1])} ally, each within its Range of the enemy, neither having acted: ${c.damage} damage${withStatus(c.status)}.`;
    case "terrain": return `Permanent: ${terrainWords(c.effect)}.`;
    case "homebase": return "Summoned allies appear next to it.";
    default: return "";
  }
}
