// The location's printed map (`view.board`) as an SVG drawn at the size it
// is shown (one SVG unit a CSS pixel, so its labels keep their size on a
// phone): spaces as boxes in columns by their distance from the first
// space along paths (in rows on a narrow screen), paths as lines (dashed
// while locked), every figure in the space the view names, friends and
// foes told apart by colour and shape. Spaces and figures are buttons:
// `onPick(kind, id)`; legal targets carry `data-target=true`.

import { h, s } from "../../dom.js";
import { originName, enemyName, spaceName, envName } from "./names.js";
import { originStats } from "./catalogue.js";

const FONT = 12;       // figure labels, px
const NAME_FONT = 13;  // space names, px
const SMALL = 11;      // the line under a space's name, px
const CHIP = 20;       // one figure's row
const HEAD = 40;       // a space's name and its line
const GAP = 26;

/// Where each figure stands: space index → figures.
export function figuresBySpace(view, you) {
  const at = new Map();
  const add = (ix, f) => { if (ix < 0) return; if (!at.has(ix)) at.set(ix, []); at.get(ix).push(f); };
  const spaces = view.board?.spaces ?? [];
  (view.origins ?? []).forEach((o, seat) => {
    const max = originStats(o.origin, o.level)?.hp;
    add(Number(o.space), {
      who: `origin-${seat}`, kind: "origin", id: seat, side: "friend", name: originName(o.origin),
      hp: o.hp, max, downed: o.downed, you: seat === you,
    });
  });
  for (const e of view.enemies ?? []) {
    // Enemies name their space by id, Origins by index (DIVINITY.md, "Ids").
    add(spaces.findIndex((sp) => sp.space === String(e.space)), {
      who: `enemy-${e.id}`, kind: "enemy", id: e.id, side: "foe", name: enemyName(e),
      hp: e.hp, max: e.max_hp, boss: e.kind?.kind === "boss",
    });
  }
  return at;
}

/// Distance from the first space along paths: columns (or rows).
function layers(board) {
  const n = board.spaces.length;
  const ix = new Map(board.spaces.map((sp, i) => [sp.space, i]));
  const edges = board.paths.map((p) => [ix.get(p.a), ix.get(p.b)]).filter(([a, b]) => a !== undefined && b !== undefined);
  const depth = new Array(n).fill(-1);
  if (n) depth[0] = 0;
  for (let q = n ? [0] : []; q.length;) {
    const at = q.shift();
    for (const [a, b] of edges) {
      const next = a === at ? b : b === at ? a : undefined;
      if (next !== undefined && depth[next] < 0) { depth[next] = depth[at] + 1; q.push(next); }
    }
  }
  const last = Math.max(0, ...depth) + 1;
  const out = [];
  depth.forEach((d, i) => { (out[d < 0 ? last : d] ??= []).push(i); });
  return out.filter(Boolean);
}

/// Bold text of DejaVu/Helvetica-like fonts: about 0.64 em a character.
const EM = 0.64;
const fit = (text, px, font) => {
  const max = Math.max(3, Math.floor(px / (font * EM)));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

function shape(f, x, y) {
  if (f.side === "friend") {
    return s("circle", { cx: x, cy: y, r: 6.5, class: `mark friend${f.downed ? " downed" : ""}${f.you ? " you" : ""}` });
  }
  const r = f.boss ? 8.5 : 7;
  return s("polygon", { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`, class: `mark foe${f.boss ? " boss" : ""}` });
}

/// The map. `opts`: {width (px), you, targets: Set of "kind:id" keys,
/// selected: "kind:id" | null, onPick(kind, id)}.
export function locationMap(view, opts) {
  const board = view.board ?? { spaces: [], paths: [] };
  const width = Math.max(280, Math.floor(opts.width || 600));
  const cols = layers(board);
  const figures = figuresBySpace(view, opts.you);
  const breadth = Math.max(1, ...cols.map((c) => c.length));
  // Side by side when every column has room for a figure's name and HP;
  // else top to bottom.
  const across = width >= cols.length * 185;
  const cell = across ? width / Math.max(1, cols.length) : width / breadth;
  const bw = Math.min(230, cell - 10);
  const heightOf = (i) => HEAD + CHIP * Math.max(1, (figures.get(i) ?? []).length) + 6;
  const pos = [];
  let total;
  if (across) {
    const colH = cols.map((c) => c.reduce((n, i) => n + heightOf(i), 0) + GAP * (c.length - 1));
    total = Math.max(...colH) + 20;
    cols.forEach((c, x) => {
      let y = (total - colH[x]) / 2;
      for (const i of c) { pos[i] = { x: x * cell + (cell - bw) / 2, y, h: heightOf(i) }; y += heightOf(i) + GAP; }
    });
  } else {
    let y = 10;
    cols.forEach((c) => {
      const rowH = Math.max(...c.map(heightOf));
      const left = (width - c.length * cell) / 2;
      c.forEach((i, k) => { pos[i] = { x: left + k * cell + (cell - bw) / 2, y: y + (rowH - heightOf(i)) / 2, h: heightOf(i) }; });
      y += rowH + GAP + 6;
    });
    total = y;
  }
  const keys = new Set(view.map?.keys ?? []);
  const placed = view.map?.placed ?? {};
  const tokens = view.map?.tokens ?? {};
  const centre = (i) => [pos[i].x + bw / 2, pos[i].y + pos[i].h / 2];
  const ixOf = new Map(board.spaces.map((sp, i) => [sp.space, i]));
  const pick = (kind, id) => (ev) => {
    if (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();
    ev.stopPropagation();
    opts.onPick(kind, id);
  };
  const paths = board.paths.map((p, k) => {
    const a = ixOf.get(p.a), b = ixOf.get(p.b);
    if (a === undefined || b === undefined || !pos[a] || !pos[b]) return null;
    const locked = p.locked && !keys.has(k);
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    return s("line", { x1, y1, x2, y2, class: `link${locked ? " locked" : ""}`, "data-test": "path", "data-locked": String(locked), "data-key": `path:${k}` });
  });
  const spaces = board.spaces.map((sp, i) => {
    const { x, y, h: bh } = pos[i];
    const here = figures.get(i) ?? [];
    const tactical = sp.number == null;
    const hidden = sp.locked && placed[i] === undefined;
    const env = tokens[i] ?? sp.environment;
    const left = tactical || sp.number == null ? null : view.cards_left?.[sp.number];
    const line = [
      hidden ? "undiscovered" : null,
      env ? envName(env) : null,
      tactical ? "no exploring here" : left ? `${left} card${left === 1 ? "" : "s"} to explore` : hidden ? null : "explored",
    ].filter(Boolean).join(" · ");
    const key = `space:${sp.space}`;
    const target = opts.targets?.has(key);
    const title = `${spaceName(view, i)}${sp.number != null ? `, space number ${sp.number}` : ""}${line ? `: ${line}` : ""}`;
    return s("g", {
      "data-test": "space", "data-space": i, "data-id": sp.space, "data-key": key,
      "data-tactical": String(tactical), "data-undiscovered": String(hidden),
      "data-target": target ? "true" : undefined, "data-selected": opts.selected === key ? "true" : undefined,
      class: `space${tactical ? " tactical" : ""}${hidden ? " undiscovered" : ""}${target ? " target" : ""}${opts.selected === key ? " selected" : ""}`,
      tabindex: 0, role: "button", "aria-label": title,
      onclick: pick("space", sp.space), onkeydown: pick("space", sp.space),
    },
    s("title", {}, title),
    s("rect", { x, y, width: bw, height: bh, rx: 9, class: "box" }),
    s("text", { x: x + 10, y: y + 17, class: "space-name", "font-size": NAME_FONT }, fit(tactical ? "Tactical space" : sp.name, bw - 20, NAME_FONT)),
    s("text", { x: x + 10, y: y + 32, class: "space-line", "font-size": SMALL }, fit(line, bw - 20, SMALL)),
    here.map((f, j) => {
      const fy = y + HEAD + j * CHIP + CHIP / 2 - 2;
      const fkey = `${f.kind}:${f.id}`;
      const ft = opts.targets?.has(fkey);
      const label = `${f.name}${f.you ? " (you)" : ""}`;
      // "24 HP" where the name fits beside it, else the number alone.
      const room = (text) => bw - 26 - (text.length * SMALL * EM + 10);
      const fits = (text) => label.length * FONT * EM <= room(text);
      const hp = f.downed ? "down" : fits(`${f.hp} HP`) ? `${f.hp} HP` : `${f.hp}`;
      return s("g", {
        "data-test": "figure", "data-who": f.who, "data-side": f.side, "data-key": `fig:${f.who}`,
        "data-target": ft ? "true" : undefined, "data-selected": opts.selected === fkey ? "true" : undefined,
        class: `figure ${f.side}${ft ? " target" : ""}${opts.selected === fkey ? " selected" : ""}${f.downed ? " downed" : ""}`,
        tabindex: 0, role: "button",
        "aria-label": `${label}, ${f.side === "friend" ? "an Origin of the party" : f.boss ? "a Boss" : "an enemy"}, ${f.downed ? "downed" : `${f.hp}${f.max ? ` of ${f.max}` : ""} HP`}`,
        onclick: pick(f.kind, f.id), onkeydown: pick(f.kind, f.id),
      },
      s("title", {}, `${label}: ${f.downed ? "downed" : `${f.hp}${f.max ? ` of ${f.max}` : ""} HP`}`),
      s("rect", { x: x + 3, y: fy - CHIP / 2 + 1, width: bw - 6, height: CHIP - 2, rx: 5, class: "chip-bg" }),
      shape(f, x + 14, fy),
      s("text", { x: x + 26, y: fy + 4, class: "figure-name", "font-size": FONT }, fit(label, room(hp), FONT)),
      s("text", { x: x + bw - 8, y: fy + 4, "text-anchor": "end", class: "figure-hp", "font-size": SMALL }, hp));
    }));
  });
  return s("svg", {
    viewBox: `0 0 ${width} ${Math.ceil(total)}`, width, height: Math.ceil(total),
    class: "location-map", "data-test": "location-map", "data-layout": across ? "across" : "down",
    role: "group", "aria-label": `The map: ${board.spaces.length} spaces`,
  }, paths, spaces);
}

/// What the marks mean.
export function mapLegend() {
  const icon = (...children) => s("svg", { viewBox: "0 0 16 16", width: 16, height: 16, class: "legend-icon", "aria-hidden": "true" }, children);
  const item = (i, text) => h("li", {}, i, " ", text);
  return h("ul", { class: "map-legend", "data-test": "map-legend" },
    item(icon(s("circle", { cx: 8, cy: 8, r: 6, class: "mark friend" })), "an Origin of the party"),
    item(icon(s("circle", { cx: 8, cy: 8, r: 6, class: "mark friend you" })), "you"),
    item(icon(s("circle", { cx: 8, cy: 8, r: 6, class: "mark friend downed" })), "downed"),
    item(icon(s("polygon", { points: "8,1 15,8 8,15 1,8", class: "mark foe" })), "an enemy"),
    item(icon(s("polygon", { points: "8,0 16,8 8,16 0,8", class: "mark foe boss" })), "a Boss"),
    item(icon(s("rect", { x: 1, y: 3, width: 14, height: 10, rx: 3, class: "legend-target" })), "you can act on it: click it"),
    item(icon(s("line", { x1: 0, y1: 8, x2: 16, y2: 8, class: "link locked" })), "a locked path"));
}
