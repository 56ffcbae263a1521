// Divinity's reference content as the server serves it
// (GET /api/games/divinity/catalogue/{origins,skills,talents,items,runes,
// statuses,dice}), loaded once per page, and the texts the page shows for
// a card: its name, what kind of card it is, its cost and its printed text.
// Statuses have no printed names or texts in the content; theirs are said
// here from the rules the engine plays them by (statuses.json).

import { api } from "../../net.js";

const FILES = ["origins", "skills", "talents", "items", "runes", "statuses", "dice"];

let data = null; // {origins: Map, skills: Map, ...}
let loading = null;

/// Load the catalogue (once); resolves when every file is in.
export function loadCatalogue() {
  if (!loading) {
    loading = Promise.all(FILES.map((f) => api("GET", `/api/games/divinity/catalogue/${f}`))).then((files) => {
      const byId = (list) => new Map((list ?? []).map((x) => [x.id, x]));
      const [origins, skills, talents, items, runes, statuses, dice] = files;
      data = {
        originList: origins ?? [],
        origins: byId(origins),
        skills: byId(skills),
        talents: byId(talents),
        items: byId(items),
        runes: byId(runes),
        statuses: new Map(Object.entries(statuses ?? {})),
        dice: dice ?? {},
      };
      return data;
    }, (e) => { loading = null; throw e; });
  }
  return loading;
}

/// The loaded catalogue, or null while it loads.
export const cat = () => data;

export const SCHOOLS = {
  aerotheurge: "Aerotheurge", geomancer: "Geomancer", hydrosophist: "Hydrosophist", pyrokinetic: "Pyrokinetic",
  necromancer: "Necromancer", polymorph: "Polymorph", scoundrel: "Scoundrel", summoning: "Summoning",
  huntsman: "Huntsman", warfare: "Warfare", duelist: "Duelist", two_handed: "Two-Handed", source: "Source",
};

const SLOTS = {
  one_hand: "one-handed", two_hands: "two-handed", head: "head", chest: "chest", trinket: "trinket",
};
const CONSUMABLES = { scrolls: "scroll", potions: "potion", grenades: "grenade", arrows: "arrow" };

export const ENVIRONMENTS = {
  charged: { name: "Charged", text: "When anyone here takes air damage, they take 2 more." },
  wet: { name: "Wet", text: "When anyone here takes water damage, they take 2 more." },
  warm: { name: "Warm", text: "When anyone here takes fire damage, they take 2 more." },
  oily: { name: "Oily", text: "When anyone here takes earth damage, they take 2 more." },
  difficult_terrain: { name: "Difficult terrain", text: "In combat, Origins spend 1 more AP and enemies 1 more movement to move here." },
};

const DAMAGE = { direct: "direct", fire: "fire", water: "water", air: "air", earth: "earth", poison: "poison", physical: "physical", magic: "magic" };

/// A status's printed name (the book writes them in capitals).
export const STATUS_NAMES = {
  bleeding: "Bleeding", blessed: "Blessed", blinded: "Blinded", burning: "Burning", chicken: "Chicken",
  dominated: "Dominated", exposed: "Exposed", frozen: "Frozen", haste: "Haste", invisible: "Invisible",
  knocked_down: "Knocked Down", poisoned: "Poisoned", shocked: "Shocked", stunned: "Stunned", sundered: "Sundered",
};

/// What a status does, said from the rules the engine plays it by.
export function statusText(id) {
  const r = data?.statuses.get(id);
  if (!r) return "";
  const parts = [];
  const dmg = (d) => `${d.amount} ${DAMAGE[d.type] ?? "direct"} damage`;
  if (r.start_of_turn) parts.push(`${dmg(r.start_of_turn)} at the start of each turn`);
  if (r.per_move) parts.push(`${dmg(r.per_move)} for each space moved`);
  if (r.blocks_healing) parts.push("cannot be healed");
  if (r.blocks_moving) parts.push("cannot move");
  if (r.skips_turn) parts.push("skips its turns");
  if (r.blocks_attacks) parts.push("cannot attack or use cards");
  if (r.dominated) parts.push("the party gives this enemy its orders");
  if (r.untargetable) parts.push("enemies cannot target it");
  if (r.extra_hits) parts.push(`+${r.extra_hits} hit on every roll`);
  if (r.dice_reduction) parts.push(`rolls ${r.dice_reduction} die fewer`);
  if (r.ap_gain) parts.push(`${r.ap_gain > 0 ? "+" : ""}${r.ap_gain} AP gained each turn`);
  if (r.max_ap) parts.push(`may hold up to ${r.max_ap} AP`);
  if (r.physical_armor) parts.push(`${r.physical_armor > 0 ? "+" : ""}${r.physical_armor} physical armor`);
  if (r.magical_armor) parts.push(`${r.magical_armor > 0 ? "+" : ""}${r.magical_armor} magical armor`);
  const t = parts.join("; ");
  return t ? `${r.positive ? "Helpful" : "Harmful"}: ${t}.` : "";
}

/// A skill's one-line description: school, level, cost, cooldown, text.
export function skillText(id) {
  const s = data?.skills.get(id);
  if (!s) return "";
  const cost = s.source ? `${s.source} Source` : `${s.ap ?? 0} AP`;
  const head = [`${SCHOOLS[s.school] ?? "Skill"}${s.school === "source" ? " skill" : `, level ${s.level}`}`, cost];
  if (s.cooldown) head.push(`cooldown ${s.cooldown}`);
  return `${head.join(" · ")}. ${s.text ?? ""}`.trim();
}

function itemKind(i) {
  const k = i.kind ?? {};
  if (k.kind === "equipment") return `${SLOTS[k.value] ?? "equipment"} equipment${i.level ? `, level ${i.level}` : ""}`;
  if (k.kind === "consumable") return CONSUMABLES[k.value] ?? "consumable";
  return "item";
}

/// An item's (or a rune's) one-line description.
export function itemText(id) {
  const i = data?.items.get(id);
  if (i) {
    const head = [cap(itemKind(i))];
    if (i.unique) head.push("unique");
    if (i.action?.ap != null) head.push(`${i.action.ap} AP to use`);
    if (i.cost != null) head.push(`worth ${i.cost} gold`);
    return `${head.join(" · ")}. ${i.text ?? ""}`.trim();
  }
  const r = data?.runes.get(id);
  if (r) return `Rune. ${(r.sides ?? []).map((s) => `On ${SLOTS[s.slot] ?? s.slot} gear: ${s.text}`).join(" ")}`;
  return "";
}

export function talentText(id) {
  const t = data?.talents.get(id);
  if (!t) return "";
  const head = [`Talent, level ${t.level}`];
  if (t.once_per_location) head.push("once per location");
  if (t.keywords?.length) head.push(`keywords ${t.keywords.join(", ")}`);
  return `${head.join(" · ")}. ${t.text ?? ""}`.trim();
}

/// An Origin at a level: HP, AP, Source.
export function originStats(id, level = 1) {
  const o = data?.origins.get(id);
  const l = o?.levels?.[Math.max(0, level - 1)];
  return l ? { hp: l.hp, ap: l.ap, source: l.source, bonus: l.level_bonus, talents: l.talents } : null;
}

/// One die's face in words: "2 hits", "1 hit and a special", "blank".
export function faceWords(colour, face) {
  const f = data?.dice?.[colour]?.[face];
  if (!f) return "";
  const hits = f.hits ? `${f.hits} hit${f.hits === 1 ? "" : "s"}` : "";
  if (hits && f.special) return `${hits} and a special`;
  if (f.special) return "a special";
  return hits || "blank";
}

/// Hits and specials of a roll.
export function rollTotals(dice) {
  let hits = 0, specials = 0;
  for (const d of dice ?? []) {
    const f = data?.dice?.[d.colour]?.[d.face];
    hits += f?.hits ?? 0;
    if (f?.special) specials += 1;
  }
  return { hits, specials };
}

export const cap = (t) => (t ? t.charAt(0).toUpperCase() + t.slice(1) : t);
