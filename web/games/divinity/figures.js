// The party and its foes as tables (HP, armor, AP, Source, where each
// stands, statuses), and each Origin's sheet: special ability, skills in
// hand and on cooldown, equipped items, backpack, talents, summon. Names
// and texts come from the catalogue.

import { h } from "../../dom.js";
import { cat, originStats } from "./catalogue.js";
import { originName, enemyName, spaceName, spaceIndex, itemName, cardName } from "./names.js";
import { cardChip, statusChip, chips } from "./chips.js";

/// Cards on a cooldown track: [{kind, id, slot (1 = the last before it
/// clears), faceUp}].
export function trackCards(track) {
  const out = [];
  (track?.slots ?? []).forEach((slot, i) => {
    for (const c of slot ?? []) out.push({ kind: c.card?.kind, id: c.card?.id, slot: i + 1, faceUp: c.face_up !== false });
  });
  return out;
}

const turns = (n) => `${n} more turn${n === 1 ? "" : "s"}`;

/// A figure's statuses in force, each with how long it stays.
export function statusChips(track) {
  const list = trackCards(track).filter((c) => c.kind === "status" && c.faceUp);
  if (!list.length) return h("span", { class: "hint" }, "none");
  return h("span", { class: "chips" }, list.map((c, i) => [i ? " " : null,
    statusChip(c.id, h("span", { class: "hint" }, ` (${turns(c.slot)})`))]));
}

function armorCell(a) {
  return h("td", {
    "data-test": "armor", "data-physical": a?.physical ?? "", "data-magical": a?.magical ?? "",
    title: a ? `${a.physical} physical armor, ${a.magical} magical armor` : undefined,
  }, a ? `${a.physical} / ${a.magical}` : "—");
}

export function originsTable(view, you) {
  return h("table", { class: "figures", "data-test": "origins-table" },
    h("caption", {}, "The party"),
    h("tr", {}, h("th", {}, "Origin"), h("th", {}, "HP"), h("th", { title: "physical / magical armor" }, "Armor"),
      h("th", { title: "action points" }, "AP"), h("th", {}, "Source"), h("th", { class: "where" }, "Where"), h("th", {}, "Statuses")),
    (view.origins ?? []).map((o, seat) => {
      const max = originStats(o.origin, o.level)?.hp;
      return h("tr", { "data-test": "origin-row", "data-seat": seat, class: seat === you ? "you" : undefined },
        h("td", {}, h("span", { class: "mark-dot friend" }), originName(o.origin), seat === you ? " (you)" : "", o.downed ? " · downed" : ""),
        h("td", { class: "hp" }, max ? `${o.hp} / ${max}` : o.hp), armorCell(view.armor?.[seat]), h("td", {}, o.ap), h("td", {}, o.source),
        h("td", { class: "where" }, spaceName(view, Number(o.space))), h("td", {}, statusChips(o.track)));
    }));
}

export function enemiesTable(view) {
  if (!(view.enemies ?? []).length) return null;
  return h("div", { class: "enemies" },
    h("table", { class: "figures", "data-test": "enemies-table" },
      h("caption", {}, "Enemies"),
      h("tr", {}, h("th", {}, "Enemy"), h("th", {}, "HP"), h("th", { title: "physical / magical armor" }, "Armor"),
        h("th", { class: "where" }, "Where"), h("th", { title: "fast enemies act before the Origins, slow ones after" }, "Acts"), h("th", {}, "Statuses")),
      view.enemies.map((e) => h("tr", { "data-test": "enemy-row", "data-enemy": e.id },
        h("td", {}, h("span", { class: `mark-dot foe${e.kind?.kind === "boss" ? " boss" : ""}` }), enemyName(e), e.kind?.veteran ? " (veteran)" : ""),
        h("td", { class: "hp" }, `${e.hp} / ${e.max_hp}`), armorCell(e.armor),
        h("td", { class: "where" }, spaceName(view, spaceIndex(view, e.space))),
        h("td", {}, e.fast ? "fast" : "slow"),
        h("td", {}, statusChips(e.track))))),
    view.enemies.filter((e) => e.special_rules).map((e) => h("details", { class: "boss-rules", "data-test": "boss-rules", "data-enemy": e.id },
      h("summary", {}, `${enemyName(e)}: special rules`), h("p", {}, e.special_rules))));
}

/// One Origin's sheet; the receiver's is `my-origin`, the others'
/// `origin-sheet` (collapsed).
export function originSheet(view, seat, you) {
  const o = view.origins[seat];
  const def = cat()?.origins.get(o.origin);
  const stats = originStats(o.origin, o.level);
  const onTrack = trackCards(o.track);
  const cooling = onTrack.filter((c) => c.kind === "skill");
  const ongoing = onTrack.filter((c) => c.kind === "consumable");
  const used = new Set(o.talents_used ?? []);
  const runes = o.runes ?? [];
  const body = [
    def ? h("p", { class: "ability" }, h("b", {}, "Special ability: "), def.special_ability) : null,
    def?.keywords?.length ? h("p", {}, h("b", {}, "Keywords: "), def.keywords.join(", ")) : null,
    h("p", {}, h("b", {}, "Skills ready: "), chips(o.hand, cardChip, "none")),
    cooling.length ? h("p", {}, h("b", {}, "On cooldown: "), cooling.map((c, i) => [i ? " " : null, cardChip(c.id, { extra: h("span", { class: "hint" }, ` (back in ${turns(c.slot)})`) })])) : null,
    ongoing.length ? h("p", {}, h("b", {}, "Ongoing: "), ongoing.map((c, i) => [i ? " " : null, cardChip(c.id)])) : null,
    h("p", {}, h("b", {}, "Equipped: "), chips(o.equipped, cardChip, "nothing")),
    runes.length ? h("p", {}, h("b", {}, "Runes: "), runes.map((r, i) => [i ? " " : null, cardChip(r.rune), ` on ${itemName(r.item)}`])) : null,
    h("p", {}, h("b", {}, `Backpack (${(o.backpack ?? []).length} of 3): `), chips(o.backpack, cardChip, "empty")),
    h("p", {}, h("b", {}, "Talents: "), (o.talents ?? []).length
      ? (o.talents ?? []).map((t, i) => [i ? " " : null, cardChip(t, { extra: used.has(t) ? h("span", { class: "hint" }, " (used)") : null })])
      : h("span", { class: "hint" }, "none")),
    o.summon ? h("p", {}, h("b", {}, "Summon: "), cardName(o.summon)) : null,
  ];
  const title = `${originName(o.origin)}, level ${o.level}`;
  const line = `${o.hp}${stats ? ` of ${stats.hp}` : ""} HP · ${o.ap} AP · ${o.source} Source${o.downed ? " · downed" : ""}`;
  if (seat === you) {
    return h("div", { class: "card sheet mine", "data-test": "my-origin", "data-seat": seat },
      h("h3", {}, `You play ${title}`), h("p", { class: "hint" }, line), body);
  }
  return h("details", { class: "sheet", "data-test": "origin-sheet", "data-seat": seat, "data-key": `sheet:${seat}` },
    h("summary", {}, h("b", {}, title), " · ", line), body);
}
