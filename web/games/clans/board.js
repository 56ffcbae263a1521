// The battlefield as an SVG square grid: terrain drawn distinctly (colour
// and a mark, so it reads without colour too), the edges labelled as the
// words name tiles (columns a, b, c… along the top and bottom, rows 1, 2,
// 3… down the sides: CLANS.md "Coordinates and names"), homebases and
// figures in their seat's colour, and what a click does now (`data-hot`,
// from the legal list only).

import { s } from "../../dom.js";
import { card } from "./cards.js";

export const CELL = 40;
const PAD = 22; // room for the edge labels

export const TERRAIN = {
  G: { name: "ground", fill: "#e9dfbf", mark: "" },
  F: { name: "forest", fill: "#7fae6a", mark: "♣" },
  W: { name: "water", fill: "#7fb3de", mark: "≈" },
  M: { name: "mountain", fill: "#9a8c7e", mark: "▲" },
};
/// Seat colours: team 0 (seats 0, 2) cool, team 1 (seats 1, 3) warm.
export const SEAT_COLOUR = ["#2f6db5", "#c0392b", "#1f9e89", "#d9822b"];
export const SEAT_COLOUR_NAME = ["blue", "red", "teal", "orange"];

export const key = (p) => `${p[0]},${p[1]}`;
export const colName = (x) => String.fromCharCode(97 + x);
/// A tile as the words name it: column letter and row number ("c12").
export const tileName = (p) => `${colName(p[0])}${p[1] + 1}`;
export const terrainAt = (v, p) => TERRAIN[v.rows?.[p[1]]?.[p[0]]]?.name ?? "ground";

/// The board for view `v`. `hot`: Map tile key -> list of what a click
/// there does; `selected`: a tile key; `recent`: tile keys the last update
/// was about; `onTile(pos)`.
export function boardSvg(v, { hot, selected, recent, onTile, me }) {
  const W = v.width * CELL + PAD * 2;
  const H = v.height * CELL + PAD * 2;
  const homes = new Map();
  for (const p of v.players ?? []) if (p.homebase) homes.set(key(p.homebase), p.seat);
  const figs = new Map((v.figures ?? []).map((f) => [key(f.pos), f]));
  // Before the reveal a seat sees where its own God will stand.
  const ghosts = new Map();
  if (v.phase?.phase === "placement") for (const p of v.players ?? []) if (p.god_at) ghosts.set(key(p.god_at), p.seat);
  const tiles = [];
  for (let y = 0; y < v.height; y++) {
    for (let x = 0; x < v.width; x++) {
      const k = `${x},${y}`;
      const letter = v.rows[y]?.[x] ?? "G";
      const t = TERRAIN[letter] ?? TERRAIN.G;
      const what = hot.get(k) ?? [];
      const home = homes.get(k);
      const f = figs.get(k);
      const px = PAD + x * CELL;
      const py = PAD + y * CELL;
      const label = `${tileName([x, y])}, ${t.name}${home != null ? `, seat ${home}'s homebase` : ""}${f ? `, ${card(f.card)?.name ?? "a figure"} ${f.id}` : ""}`;
      tiles.push(s("g", {
        class: `tile t-${t.name}${what.length ? " hot" : ""}${selected === k ? " selected" : ""}`,
        "data-test": "tile", "data-key": `tile:${k}`, "data-x": x, "data-y": y, "data-terrain": t.name,
        "data-hot": what.length ? what.join(" ") : undefined, "data-selected": selected === k ? "true" : undefined,
        "data-recent": recent?.has(k) ? "true" : undefined, "data-homebase": home,
        tabindex: what.length ? 0 : -1, role: "button", "aria-label": label,
        onclick: () => onTile([x, y]),
        onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onTile([x, y]); } },
      },
      s("rect", { x: px, y: py, width: CELL, height: CELL, fill: t.fill, class: "ground" }),
      t.mark ? s("text", { x: px + CELL - 9, y: py + 13, class: `mark m-${t.name}`, "aria-hidden": "true" }, t.mark) : null,
      home != null ? homeMark(px, py, home) : null,
      f ? figureMark(px, py, f, v, me) : null,
      ghosts.has(k) ? s("g", { class: "ghost", "data-test": "god-placed", "data-seat": ghosts.get(k) },
        s("circle", { cx: px + CELL / 2, cy: py + CELL / 2, r: CELL / 2 - 4, fill: "none", stroke: SEAT_COLOUR[ghosts.get(k)], "stroke-width": 2.5, "stroke-dasharray": "4 3" }),
        s("text", { x: px + CELL / 2, y: py + CELL / 2 + 5, class: "fig-id ghost-glyph", fill: SEAT_COLOUR[ghosts.get(k)] }, "♛")) : null,
      what.length ? s("rect", { x: px + 2, y: py + 2, width: CELL - 4, height: CELL - 4, class: `hot-ring ${what.includes("target") ? "target" : what.includes("move") ? "move" : "pick"}` }) : null));
    }
  }
  const labels = [];
  for (let x = 0; x < v.width; x++) {
    labels.push(s("text", { x: PAD + x * CELL + CELL / 2, y: PAD - 7, class: "edge" }, colName(x)),
      s("text", { x: PAD + x * CELL + CELL / 2, y: H - 7, class: "edge" }, colName(x)));
  }
  for (let y = 0; y < v.height; y++) {
    labels.push(s("text", { x: PAD / 2, y: PAD + y * CELL + CELL / 2 + 4, class: "edge" }, y + 1),
      s("text", { x: W - PAD / 2, y: PAD + y * CELL + CELL / 2 + 4, class: "edge" }, y + 1));
  }
  // The line between the two teams' halves, and in 2v2 between the seats' quarters.
  const mid = s("line", { x1: PAD, y1: PAD + (v.height / 2) * CELL, x2: W - PAD, y2: PAD + (v.height / 2) * CELL, class: "half" });
  const quarter = (v.players?.length ?? 2) === 4
    ? s("line", { x1: PAD + (v.width / 2) * CELL, y1: PAD, x2: PAD + (v.width / 2) * CELL, y2: H - PAD, class: "half quarter" }) : null;
  return s("svg", { class: "clans-board", "data-test": "board", viewBox: `0 0 ${W} ${H}`, role: "grid", "aria-label": "the battlefield" },
    labels, s("g", { class: "tiles" }, tiles), mid, quarter);
}

function homeMark(px, py, seat) {
  const c = SEAT_COLOUR[seat] ?? "#555";
  return s("g", { class: "homebase", "data-test": "homebase", "data-seat": seat },
    s("rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 3, fill: "#fff", stroke: c, "stroke-width": 3 }),
    s("text", { x: px + CELL / 2, y: py + CELL / 2 + 6, class: "home-glyph", fill: c }, "⌂"));
}

function figureMark(px, py, f, v, me) {
  const c = card(f.card);
  const god = !!c?.god;
  const colour = SEAT_COLOUR[f.owner] ?? "#555";
  const cx = px + CELL / 2;
  const cy = py + CELL / 2;
  const r = god ? CELL / 2 - 2 : CELL / 2 - 5;
  const spent = f.done || f.acted || f.just_summoned;
  const current = v.current === f.id;
  const team = v.players?.[f.owner]?.team ?? f.owner % 2;
  return s("g", {
    class: `figure${spent ? " spent" : ""}${current ? " current" : ""}${f.owner === me ? " mine" : ""}`,
    "data-test": "figure", "data-figure": f.id, "data-owner": f.owner, "data-team": team, "data-card": f.card,
    "data-god": god ? "true" : undefined, "data-hp": f.hp, "data-statuses": (f.statuses ?? []).join(" ") || undefined,
  },
  god ? s("circle", { cx, cy, r: r + 1, fill: "#f4c430", class: "god-ring" }) : null,
  s("circle", { cx, cy, r: god ? r - 3 : r, fill: colour, stroke: current ? "#111" : "#fff", "stroke-width": current ? 3 : 1.5 }),
  s("text", { x: cx, y: cy + 1, class: "fig-id" }, god ? `♛${f.id}` : String(f.id)),
  s("text", { x: cx, y: py + CELL - 3, class: "fig-hp" }, `${f.hp}`),
  (f.statuses ?? []).length ? s("circle", { cx: px + 7, cy: py + 7, r: 5, class: `status-dot ${f.statuses.join(" ")}` }) : null);
}
