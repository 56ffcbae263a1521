// The hex board in SVG: terrain and heights, summoning hexes, relics, units
// by owner and Alpha, and the hexes the legal actions are about. Pure
// drawing plus the helpers that tie an action to its hexes.

import { s } from "../../dom.js";
import { genusOf } from "./cards.js";
import { unitName, seatName } from "./names.js";

export const SIZE = 30;
export const key = (hx) => `${hx[0]},${hx[1]}`;
const HEIGHT = { hill: 2, plains: 1, water: 1, crater: 0 };
export const heightOf = (terrain) => HEIGHT[terrain] ?? 1;

/// How the board shows an action: the class its hexes get.
export function kindOf(a) {
  switch (a.type) {
    case "summon": return "summon";
    case "activate": return "activate";
    case "move": case "pass_relic": return "move";
    case "choose_casualty": return "casualty";
    default: return "target";
  }
}

/// The hexes an action is picked on (empty: it has no place on the board).
export function anchors(a, v) {
  const unitHex = (id) => v.units.find((u) => u.id === id)?.hex;
  const t = a.target ?? {};
  const out = [];
  switch (a.type) {
    case "summon": out.push(a.hex); break;
    case "activate": case "choose_casualty": out.push(unitHex(a.unit)); break;
    case "move": out.push(a.to); break;
    case "pass_relic": out.push(unitHex(a.to)); break;
    case "use_power": case "cast_di":
      if (t.unit !== undefined) out.push(unitHex(t.unit));
      if (t.hex) out.push(t.hex);
      for (const x of t.hexes ?? []) out.push(x);
      if (t.dest) out.push(t.dest);
      // A choice of several hexes naming no hex of its own (Flood): any of them.
      if (t.choose && !t.hex) for (const x of t.choose.from) out.push(x);
      break;
    default: break;
  }
  return out.filter(Boolean);
}

const corners = (r) => [...Array(6)].map((_, i) => {
  const a = (Math.PI / 180) * (60 * i - 30);
  return `${(r * Math.cos(a)).toFixed(1)},${(r * Math.sin(a)).toFixed(1)}`;
}).join(" ");

export const pos = ([q, r]) => [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];

/// A short mark of a unit's genus, once public: the initials of its
/// capitalised words ("Raider of the Deep" → "RD"), beside the id the log uses.
function genusMark(v, u) {
  const g = genusOf(v.players?.[u.owner]?.alphas?.[u.alpha]?.design?.cards);
  return g ? g.name.split(/\s+/).filter((w) => /^[A-Z]/.test(w)).map((w) => w[0]).join("").slice(0, 2) : "";
}

/// The SVG. `o` = {view, me, hot: Map(hexKey -> Set(kinds)), selected: hexKey|null,
/// cursor: hexKey, onHex(hex), onKey(ev, hex), onUnit?: {enter, leave, tap}(ev, unit)
/// (a unit's card: web/games/duel/unitcard.js)}.
export function boardSvg(o) {
  const v = o.view;
  const unitsAt = new Map();
  for (const u of v.units) {
    const k = key(u.hex);
    if (!unitsAt.has(k)) unitsAt.set(k, []);
    unitsAt.get(k).push(u);
  }
  const xs = v.hexes.map((x) => pos(x.hex));
  const pad = SIZE * 1.1;
  const minX = Math.min(...xs.map((p) => p[0])) - pad, maxX = Math.max(...xs.map((p) => p[0])) + pad;
  const minY = Math.min(...xs.map((p) => p[1])) - pad, maxY = Math.max(...xs.map((p) => p[1])) + pad;
  const hexPts = corners(SIZE * 0.97);
  const innerPts = corners(SIZE * 0.7);
  const diOn = new Map();
  for (const d of v.active_dis ?? []) if (d.unit !== undefined && d.unit !== null) diOn.set(d.unit, d);
  return s("svg", {
    viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${(maxX - minX).toFixed(0)} ${(maxY - minY).toFixed(0)}`,
    class: "hexboard", role: "grid", "aria-label": "the board: arrow keys move, Enter or Space picks", "data-test": "board",
  },
  ...v.hexes.map((x) => {
    const [px, py] = pos(x.hex);
    const k = key(x.hex);
    const here = unitsAt.get(k) ?? [];
    const kinds = o.hot.get(k);
    const height = heightOf(x.terrain);
    const acting = here.some((u) => v.activation?.unit === u.id);
    const cls = ["hex", x.terrain, ...(kinds ? [...kinds].map((t) => `hot-${t}`) : []), o.selected === k ? "selected" : "",
      o.recent?.has(k) ? "recent" : "", acting ? "acting" : ""].join(" ");
    const label = [`${x.terrain} [${x.hex[0]},${x.hex[1]}], height ${height}`,
      x.summoning !== undefined ? `summoning hex of ${x.summoning === o.me ? "yours" : `seat ${x.summoning}`}` : null,
      x.relics ? `${x.relics} relic${x.relics > 1 ? "s" : ""}` : null,
      ...here.map((u) => `${u.owner === o.me ? "your" : `${seatName(u.owner)}'s`} ${unitName(u.id, v)}, Alpha ${u.alpha + 1}`),
      kinds ? `can ${[...kinds].join(", ")}` : null].filter(Boolean).join(", ");
    return s("g", {
      transform: `translate(${px.toFixed(1)},${py.toFixed(1)})`, class: cls,
      "data-test": "hex", "data-q": x.hex[0], "data-r": x.hex[1], "data-terrain": x.terrain, "data-height": height,
      "data-relics": x.relics, "data-summoning": x.summoning, "data-hot": kinds ? [...kinds].join(" ") : undefined,
      "data-selected": o.selected === k ? "true" : undefined, "data-recent": o.recent?.has(k) ? "true" : undefined, "data-focus": `hex:${k}`,
      tabindex: o.cursor === k ? 0 : -1, role: "gridcell", "aria-label": label,
      onclick: () => o.onHex(x.hex), onkeydown: (ev) => o.onKey(ev, x.hex),
    },
    s("title", {}, label),
    s("polygon", { points: hexPts, class: "ground" }),
    x.terrain === "hill" ? s("polygon", { points: innerPts, class: "hill-top" }) : null,
    x.terrain === "crater" ? s("circle", { r: SIZE * 0.5, class: "crater-rim" }) : null,
    x.terrain === "water" ? s("path", { d: "M-14,8 q3.5,-4 7,0 t7,0 t7,0 t7,0", class: "wave" }) : null,
    x.summoning !== undefined ? s("polygon", { points: hexPts, class: `summoning s${x.summoning}` }) : null,
    o.recent?.has(k) ? s("polygon", { points: corners(SIZE * 0.86), class: "recent-ring" }) : null,
    acting ? s("circle", { r: SIZE * 0.8, class: "acting-ring" }) : null,
    s("text", { x: 0, y: SIZE * 0.78, class: "coord", "text-anchor": "middle" }, `${x.hex[0]},${x.hex[1]}`),
    height !== 1 ? s("text", { x: -SIZE * 0.55, y: -SIZE * 0.3, class: "height", "text-anchor": "middle" }, height === 2 ? "▲" : "▼") : null,
    x.relics ? s("g", { class: "relic", "data-test": "relic", "data-count": x.relics },
      s("polygon", { points: "0,-10 8,0 0,10 -8,0", transform: here.length ? `translate(${SIZE * 0.5},${-SIZE * 0.4}) scale(0.7)` : "" }),
      x.relics > 1 ? s("text", { x: SIZE * 0.5, y: -SIZE * 0.2, class: "badge" }, String(x.relics)) : null) : null,
    ...here.map((u, i) => unitGlyph(v, o, u, i, here.length, diOn.get(u.id))),
    kinds ? s("polygon", { points: hexPts, class: "hot-ring" }) : null);
  }));
}

/// A unit's token: its Alpha's shape in its owner's colour, its id large
/// (the number the log and the buttons give it: "Raider of the Deep 7"),
/// and below it the genus mark and its Alpha's life, where they fit.
function unitGlyph(v, o, u, i, n, di) {
  const dx = n > 1 ? (i - (n - 1) / 2) * SIZE * 0.55 : 0;
  const r = n > 1 ? SIZE * 0.42 : SIZE * 0.6;
  const conds = (u.conditions ?? []).map((c) => (typeof c === "string" ? c : c.type ?? Object.keys(c)[0]));
  const life = v.players?.[u.owner]?.alphas?.[u.alpha]?.life; // the Alpha's shared life pool
  const hasLife = life !== null && life !== undefined;
  const mark = n > 1 ? "" : genusMark(v, u); // two tokens on a hex leave room for the id alone
  const cls = ["unit", `seat${u.owner}`, `alpha${u.alpha}`, u.owner === o.me ? "mine" : "theirs",
    u.activated ? "done" : "", u.controller !== u.owner ? "controlled" : "", o.onUnit ? "carded" : ""].join(" ");
  const on = o.onUnit;
  // A triangle's room is low down: its text sits lower than a circle's or a square's.
  const low = u.alpha > 1 ? 2 : 0;
  return s("g", {
    class: cls, transform: `translate(${dx.toFixed(1)},0)`,
    "data-test": "unit", "data-unit": u.id, "data-owner": u.owner, "data-controller": u.controller, "data-alpha": u.alpha,
    "data-activated": String(u.activated), "data-relic": String(u.holds_relics), "data-flying": String(u.flying),
    "data-name": unitName(u.id, v), "data-mark": mark || undefined,
    onpointerenter: on ? (ev) => on.enter(ev, u) : undefined,
    onpointerleave: on ? (ev) => on.leave(ev, u) : undefined,
    onpointerup: on ? (ev) => on.tap(ev, u) : undefined,
  },
  u.alpha === 0 ? s("circle", { r, class: "body" })
    : u.alpha === 1 ? s("rect", { x: -r * 0.88, y: -r * 0.88, width: r * 1.76, height: r * 1.76, rx: 4, class: "body" })
      : s("polygon", { points: `0,${(-r * 1.1).toFixed(1)} ${(r * 1.05).toFixed(1)},${(r * 0.85).toFixed(1)} ${(-r * 1.05).toFixed(1)},${(r * 0.85).toFixed(1)}`, class: "body" }),
  s("text", { y: n > 1 ? 3 : 4 + low, "text-anchor": "middle", class: n > 1 ? "label few" : "label", "data-test": "unit-id" }, String(u.id)),
  n > 1
    ? (hasLife ? s("text", { y: 11, "text-anchor": "middle", class: "life-badge" }, `♥${life}`) : null)
    : mark || hasLife ? s("text", { y: 13 + low / 2, "text-anchor": "middle", class: "life-badge", "data-test": "unit-mark" },
      [mark, hasLife ? `♥${life}` : ""].filter(Boolean).join(" ")) : null,
  u.flying ? s("text", { x: r * 0.9, y: -r * 0.5, class: "badge", "text-anchor": "middle" }, "✈") : null,
  u.holds_relics ? s("polygon", { points: "0,-6 5,0 0,6 -5,0", transform: `translate(${-r * 0.9},${-r * 0.6})`, class: "relic-held" }) : null,
  conds.length || di ? s("circle", { r: 4, cx: r * 0.8, cy: r * 0.7, class: "cond-dot" }) : null,
  s("title", {}, `${unitName(u.id, v)}${conds.length ? `: ${conds.join(", ")}` : ""}${di ? `; under ${di.card}` : ""}`));
}
