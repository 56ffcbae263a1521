// A duel's page: the Creation Phase (Alpha builder, presets, DI stack),
// then the hex board. Everything shown comes from the server's view and
// events; the actions offered are the view's `legal` list, nothing else.

import { api, Connection } from "./net.js";
import { h, s, showError, setConn } from "./ui.js";
import { seatOf, remember } from "./seats.js";
import { describeAction, describeEvent } from "./words.js";
import { verifyReveal } from "./verify.js";

let catalogue = null; // {ac_cards, divine_interventions}, from the server
let presets = null;

async function loadCatalogue() {
  if (!catalogue) {
    const [cards, p] = await Promise.all([
      api("GET", "/api/games/duel/catalogue/cards"),
      api("GET", "/api/games/duel/catalogue/presets"),
    ]);
    presets = p.presets;
    catalogue = cards;
  }
}

export function duelPage(root, matchId, spectator) {
  const mine = spectator ? null : seatOf(matchId);
  if (!spectator && !mine) {
    root.append(h("p", {}, "This browser holds no seat in this match. ",
      h("a", { href: `/watch/${matchId}`, "data-link": true }, "Watch it instead")));
    return null;
  }
  const st = {
    matchId, seat: mine?.seat ?? null, view: null, status: null, seq: 0, log: [],
    commitments: {}, reveals: {}, verified: {}, draft: newDraft(), timer: null, timerAt: 0, selected: null,
  };
  const page = h("section", { class: "duel", "data-test": "board", "data-seq": 0 });
  root.append(page);
  loadCatalogue().then(() => render(), (e) => showError(e.code, `catalogue: ${e.message}`));
  const conn = new Connection({
    token: mine?.token, matchId,
    onState: (state) => setConn(state),
    onFrame: (f) => onFrame(f),
  });
  const tick = setInterval(() => { if (st.timer !== null) renderTimer(); }, 500);

  function onFrame(f) {
    switch (f.type) {
      case "welcome":
        st.seat = f.seat; st.view = f.view; st.status = f.status; st.seq = f.seq; setTimer(f.timer_ms);
        break;
      case "update":
        st.view = f.view; st.status = f.status; st.seq = f.seq; setTimer(f.timer_ms);
        for (const e of f.events ?? []) st.log.push(describeEvent(e));
        break;
      case "commitment": st.commitments[f.seat] = f.hash; break;
      case "reveal":
        st.reveals[f.seat] = f;
        verifyReveal(f).then((ok) => { st.verified[f.seat] = ok; render(); });
        break;
      case "error":
        showError(f.code, f.message);
        if (f.code === "bad_token") remember(matchId, { stale: true });
        return;
      default: return;
    }
    render();
  }

  function setTimer(ms) {
    st.timer = typeof ms === "number" ? ms : null;
    st.timerAt = performance.now();
  }

  function renderTimer() {
    const el = page.querySelector("[data-test=timer]");
    if (!el || st.timer === null) return;
    const left = Math.max(0, st.timer - (performance.now() - st.timerAt));
    el.textContent = `${Math.ceil(left / 1000)} s left to answer`;
  }

  const act = (a) => conn.act(a);

  function render() {
    page.dataset.seq = st.seq;
    if (!st.view) return;
    const v = st.view;
    const creating = v.phase.phase === "creation";
    page.classList.toggle("creating", creating);
    page.replaceChildren(header(v), creating ? creation(v) : board(v), creating ? null : sidePanel(v));
    renderTimer();
  }

  function header(v) {
    const me = st.seat;
    const entry = seatOf(matchId);
    let phase;
    if (v.phase.phase === "finished") {
      const o = v.phase.outcome;
      phase = o.result === "draw" ? "The game ended in a draw." : (o.seat === me ? "You won!" : `Seat ${o.seat} won.`);
    } else if (v.phase.phase === "creation") {
      phase = "Creation Phase: each player builds three Alphas and a DI stack in secret.";
    } else {
      const waiting = v.waiting_for ?? [];
      phase = `Turn ${v.turn} · seat ${v.active} is active · ` +
        (me !== null && waiting.includes(me) ? "your move" : `waiting for seat ${waiting.join(", ") || "—"}`);
    }
    return h("div", { class: "status-bar" },
      h("span", { "data-test": "status" }, phase),
      me === null ? h("span", { class: "tag" }, "spectating") : h("span", { class: "tag" }, `you are seat ${me}`),
      entry?.join_code && v.phase.phase === "creation"
        ? h("span", { class: "share" }, "Invite: ",
          h("a", { href: `/join/${entry.join_code}`, "data-test": "join-link" }, `${location.origin}/join/${entry.join_code}`), " ",
          h("button", { onclick: () => navigator.clipboard?.writeText(`${location.origin}/join/${entry.join_code}`) }, "Copy"))
        : null,
      h("span", { "data-test": "timer", class: "timer" }));
  }

  // ----- Creation Phase -----

  function creation(v) {
    const me = st.seat;
    const mineLocked = me !== null && v.players[me]?.locked;
    if (me === null || mineLocked) {
      return h("div", { class: "card" },
        h("p", {}, mineLocked ? "Your creation is locked in. Waiting for your opponent." : "The players are building their Alphas."),
        commitmentsView());
    }
    if (!catalogue) return h("p", {}, "Loading the cards…");
    return builder(v);
  }

  function builder(v) {
    const d = st.draft;
    const filter = h("select", { "data-test": "card-filter", "aria-label": "card type",
      onchange: (ev) => { d.filter = ev.target.value; render(); } },
    ...["all", "genus", "ability", "equipment", "spell"].map((k) => h("option", { value: k, selected: d.filter === k }, k)));
    const cards = catalogue.ac_cards.filter((c) => d.filter === "all" || c.kind === d.filter);
    const used = new Set(d.alphas.flat());
    const list = h("ul", { class: "catalogue", "data-test": "catalogue" },
      ...cards.map((c) => h("li", { "data-card": c.id, class: used.has(c.id) ? "used" : "" },
        h("button", { "data-test": "add-card", "data-card": c.id, disabled: used.has(c.id),
          onclick: () => { d.alphas[d.current].push(c.id); render(); } }, "+"),
        " ", h("strong", {}, c.name), ` · ${c.kind} · ${c.cost} pts`, h("div", { class: "text" }, c.text))));
    const slots = d.alphas.map((cards, i) => alphaSlot(cards, i));
    const presetButtons = (v.legal ?? []).filter((a) => a.type === "use_preset").map((a) =>
      h("button", { "data-test": "preset", "data-preset": a.preset, onclick: () => act(a) }, `Use preset “${a.preset.replaceAll("_", " ")}”`));
    const total = d.alphas.reduce((n, cards) => n + stats(cards).cost, 0);
    return h("div", { class: "creation" },
      h("div", { class: "card" },
        h("h2", {}, "Your Alphas"),
        h("p", {}, `Creation points spent: ${total} of ${v.max_points}`, total > v.max_points ? " — over the limit" : ""),
        h("div", { class: "slots" }, ...slots),
        diBuilder(),
        h("button", { "data-test": "lock-creation", class: "primary", onclick: lock }, "Lock in my creation"),
        h("h3", {}, "Or take a whole preset"), h("div", { class: "presets" }, ...presetButtons)),
      h("div", { class: "card" }, h("h2", {}, "Cards "), filter, list));
  }

  function alphaSlot(cards, i) {
    const d = st.draft;
    const others = new Set(d.alphas.filter((_, k) => k !== i).flat());
    const st2 = stats(cards, others);
    const loader = h("select", { "data-test": "preset-alpha", "aria-label": `fill Alpha ${i + 1} from a preset`,
      onchange: (ev) => {
        const [p, k] = ev.target.value.split(":");
        const preset = presets.find((x) => x.id === p);
        if (preset) { d.alphas[i] = [...preset.alphas[Number(k)]]; render(); }
      } },
    h("option", { value: "" }, "fill from a preset…"),
    ...presets.flatMap((p) => p.alphas.map((a, k) => h("option", { value: `${p.id}:${k}` }, `${p.id} · ${a.map(name).join(", ")}`))));
    return h("div", { class: `slot ${d.current === i ? "current" : ""}`, "data-test": "alpha", "data-alpha": i,
      onclick: (ev) => { if (ev.target.tagName !== "SELECT" && ev.target.tagName !== "OPTION" && d.current !== i) { d.current = i; render(); } } },
    h("h3", {}, `Alpha ${i + 1}`, d.current === i ? " (adding here)" : ""),
    h("ul", {}, ...cards.map((id, k) => h("li", {}, name(id), " ",
      h("button", { "aria-label": `remove ${name(id)}`, onclick: () => { cards.splice(k, 1); render(); } }, "×")))),
    h("p", { class: "stats" }, `cost ${st2.cost} · life ${st2.life} · hands ${st2.red}/${st2.green} · spells ${st2.spells}/${st2.spellPoints}`),
    ...st2.broken.map((b) => h("p", { class: "broken", "data-test": "violation" }, b)),
    loader);
  }

  function diBuilder() {
    const d = st.draft;
    const dp = d.di.reduce((n, id) => n + (catalogue.divine_interventions.find((c) => c.id === id)?.divine_points ?? 0), 0);
    return h("div", { class: "di" },
      h("h3", {}, `Divine Intervention stack (${d.di.length}/4 cards, ${dp}/8 divine points; top first)`),
      h("ol", {}, ...d.di.map((id, k) => h("li", {}, name(id), " ",
        h("button", { "aria-label": `remove ${name(id)}`, onclick: () => { d.di.splice(k, 1); render(); } }, "×")))),
      h("details", { open: d.diOpen, ontoggle: (ev) => { d.diOpen = ev.target.open; } }, h("summary", { "data-test": "di-toggle" }, "Add a DI card"),
        h("ul", { class: "catalogue" }, ...catalogue.divine_interventions.map((c) => h("li", {},
          h("button", { "data-test": "di-card", "data-card": c.id, disabled: d.di.includes(c.id) || d.di.length >= 4,
            onclick: () => { d.di.push(c.id); render(); } }, "+"),
          " ", h("strong", {}, c.name), ` · ${c.divine_points} dp`, h("div", { class: "text" }, c.text))))));
  }

  function lock() {
    const d = st.draft;
    act({ type: "create", alphas: d.alphas.filter((a) => a.length).map((cards) => ({ cards })), di_stack: d.di });
  }

  function commitmentsView() {
    const items = Object.entries(st.commitments).map(([seat, hash]) =>
      h("li", { "data-test": "commitment", "data-seat": seat }, `Seat ${seat} committed: `, h("code", {}, hash.slice(0, 16) + "…"),
        st.reveals[seat] ? (st.verified[seat] === undefined ? " checking…"
          : h("strong", { "data-test": "verified", "data-ok": String(st.verified[seat]) }, st.verified[seat] ? " ✔ verified" : " ✘ MISMATCH")) : ""));
    return items.length ? h("div", {}, h("h3", {}, "Commitments"), h("ul", {}, ...items)) : null;
  }

  // ----- The board -----

  function board(v) {
    const size = 26;
    const legal = v.legal ?? [];
    const pos = ([q, r]) => [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r];
    const key = (hx) => `${hx[0]},${hx[1]}`;
    const unitAt = new Map(v.units.map((u) => [key(u.hex), u]));
    const sel = st.selected;
    const forSel = legal.filter((a) => involves(a, sel, unitAt));
    const hot = new Set();
    for (const a of (sel ? forSel : legal)) for (const hx of hexesOf(a, v)) hot.add(key(hx));
    const xs = v.hexes.map((x) => pos(x.hex));
    const minX = Math.min(...xs.map((p) => p[0])) - size * 1.2, maxX = Math.max(...xs.map((p) => p[0])) + size * 1.2;
    const minY = Math.min(...xs.map((p) => p[1])) - size * 1.2, maxY = Math.max(...xs.map((p) => p[1])) + size * 1.2;
    const corners = [...Array(6)].map((_, i) => {
      const a = Math.PI / 180 * (60 * i - 30);
      return `${(size * 0.96 * Math.cos(a)).toFixed(1)},${(size * 0.96 * Math.sin(a)).toFixed(1)}`;
    }).join(" ");
    const svg = s("svg", { viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`, class: "hexboard", role: "grid", "aria-label": "the board" },
      ...v.hexes.map((x) => {
        const [px, py] = pos(x.hex);
        const k = key(x.hex);
        const u = unitAt.get(k);
        return s("g", { transform: `translate(${px.toFixed(1)},${py.toFixed(1)})`, class: `hex ${x.terrain} ${hot.has(k) ? "legal" : ""} ${sel && sel.hex && key(sel.hex) === k ? "selected" : ""}`,
          "data-test": "hex", "data-q": x.hex[0], "data-r": x.hex[1], tabindex: 0, role: "gridcell",
          "aria-label": `${x.terrain} ${x.hex[0]},${x.hex[1]}${u ? `, unit ${u.id} of seat ${u.owner}` : ""}${x.relics ? `, ${x.relics} relic` : ""}`,
          onclick: () => clickHex(x.hex, u),
          onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); clickHex(x.hex, u); } } },
        s("polygon", { points: corners, class: x.summoning !== undefined ? `summoning s${x.summoning}` : "" }),
        x.relics ? s("polygon", { points: "0,-9 7,0 0,9 -7,0", class: "relic" }) : null,
        u ? s("g", { class: `unit seat${u.owner} ${u.activated ? "done" : ""}`, "data-test": "unit", "data-unit": u.id },
          s("circle", { r: size * 0.62 }),
          s("text", { y: 4, "text-anchor": "middle" }, `${u.owner === st.seat ? "" : "⚔"}A${u.alpha + 1}`),
          u.flying ? s("text", { y: -12, "text-anchor": "middle", class: "badge" }, "✈") : null,
          u.holds_relics ? s("text", { y: 18, "text-anchor": "middle", class: "badge" }, "◆") : null) : null);
      }));
    const buttons = (sel ? forSel : legal).filter((a) => sel || !hexesOf(a, v).length || a.type === "activate");
    return h("div", { class: "play" },
      h("div", { class: "board-wrap" }, svg,
        sel ? h("p", {}, `Selected ${sel.unit !== undefined ? `unit ${sel.unit}` : `hex ${sel.hex}`} `, h("button", { onclick: () => { st.selected = null; render(); } }, "clear")) : null),
      h("div", { class: "actions card" },
        h("h3", {}, st.seat === null ? "Spectating" : legal.length ? "Your options" : "Nothing to do now"),
        ...buttons.slice(0, 80).map((a) => h("button", { "data-test": "action", "data-type": a.type, "data-action": JSON.stringify(a),
          onclick: () => { st.selected = null; act(a); } }, describeAction(a))),
        st.seat !== null && v.phase.phase !== "finished" ? h("button", { class: "danger", "data-test": "action", "data-type": "resign",
          onclick: () => { if (confirm("Resign this game?")) act({ type: "resign" }); } }, "Resign") : null));
  }

  function clickHex(hx, unit) {
    const legal = st.view.legal ?? [];
    const unitAt = new Map(st.view.units.map((u) => [`${u.hex[0]},${u.hex[1]}`, u]));
    const here = { hex: hx, unit: unit?.id };
    const matching = legal.filter((a) => involves(a, here, unitAt));
    // One action for this hex or unit: do it; several: show them.
    if (matching.length === 1 && !(unit && matching[0].type === "activate" && st.selected?.unit === unit.id)) {
      st.selected = null;
      act(matching[0]);
      return;
    }
    st.selected = here;
    render();
  }

  function sidePanel(v) {
    const players = v.players.map((p) => h("div", { class: "player card", "data-seat": p.seat },
      h("h3", {}, `Seat ${p.seat}${p.seat === st.seat ? " (you)" : ""}`),
      h("p", {}, `summoning points spent ${p.spent}/${v.max_points} · DI cards ${p.di_count}`),
      p.di_stack ? h("p", {}, "Your DI stack: ", p.di_stack.map(name).join(", ") || "empty") : null,
      h("ul", {}, ...p.alphas.map((a) => h("li", {},
        `Alpha ${a.index + 1}: `,
        a.design ? a.design.cards.map(name).join(", ") : "hidden",
        a.life !== null ? ` · life ${a.life}/${a.max_life}` : "",
        a.cubes?.length ? ` · cubes ${a.cubes.map(([c, n]) => `${name(c)} ${n}`).join(", ")}` : "")))));
    return h("aside", { class: "side" },
      ...players,
      v.phase.phase === "finished" ? h("div", { class: "card", "data-test": "outcome" }, h("h3", {}, "Game over"), commitmentsView()) : commitmentsView(),
      h("div", { class: "card" }, h("h3", {}, "What happened"),
        h("ol", { class: "log", "data-test": "log", reversed: true }, ...st.log.slice(-60).reverse().map((t) => h("li", {}, t)))));
  }

  return () => { clearInterval(tick); conn.close(); };
}

function newDraft() {
  return { alphas: [[], [], []], di: [], current: 0, filter: "all", diOpen: false };
}

function card(id) {
  return catalogue?.ac_cards.find((c) => c.id === id) ?? catalogue?.divine_interventions.find((c) => c.id === id);
}

function name(id) {
  return card(id)?.name ?? String(id).replaceAll("_", " ");
}

/// An Alpha's cost, life and the creation restrictions it breaks, as a
/// guide while building (the server's refusal has the last word).
function stats(cards, others = new Set()) {
  const cs = cards.map(card).filter(Boolean);
  const sum = (f) => cs.reduce((n, c) => n + (f(c) ?? 0), 0);
  const out = {
    cost: sum((c) => c.cost), life: sum((c) => c.life), green: sum((c) => c.hands), red: sum((c) => c.needs_hands),
    spellPoints: sum((c) => c.spell_points), spells: sum((c) => (c.kind === "spell" ? c.cost : 0)), broken: [],
  };
  const genus = cs.filter((c) => c.kind === "genus").length;
  if (cards.length && genus !== 1) out.broken.push(`needs exactly one genus card (has ${genus})`);
  if (out.red > out.green) out.broken.push(`more red hands than green (${out.red} > ${out.green})`);
  for (const id of cards.filter((id) => others.has(id))) out.broken.push(`${name(id)} is in another Alpha: your set has one of each card`);
  if (out.spells > out.spellPoints) out.broken.push(`spells cost ${out.spells} but it has ${out.spellPoints} spell points`);
  return out;
}

/// Whether an action concerns the selected unit or hex.
function involves(a, sel, unitAt) {
  if (!sel) return false;
  const t = a.target ?? {};
  const unitIds = [a.unit, a.to?.length === undefined ? a.to : undefined, t.unit].filter((x) => x !== undefined);
  if (sel.unit !== undefined && unitIds.includes(sel.unit)) return true;
  const hx = [a.hex, Array.isArray(a.to) ? a.to : undefined, t.hex, t.dest, ...(t.hexes ?? [])].filter(Boolean);
  if (sel.hex && hx.some((x) => x[0] === sel.hex[0] && x[1] === sel.hex[1])) return true;
  if (sel.hex && t.unit !== undefined) {
    const u = unitAt.get(`${sel.hex[0]},${sel.hex[1]}`);
    if (u && u.id === t.unit) return true;
  }
  return false;
}

/// The hexes an action points at (for highlighting).
function hexesOf(a, v) {
  const t = a.target ?? {};
  const out = [a.hex, Array.isArray(a.to) ? a.to : undefined, t.hex, t.dest, ...(t.hexes ?? [])].filter(Boolean);
  const unitIds = [a.unit, typeof a.to === "number" ? a.to : undefined, t.unit].filter((x) => x !== undefined);
  for (const id of unitIds) {
    const u = v.units.find((x) => x.id === id);
    if (u) out.push(u.hex);
  }
  return out;
}
