// Divinity in the browser: the campaign page (seats, Origins, the next
// location) and the match page of a location (map, figures, time track,
// this seat's skills and items, dice, the log, and every legal action the
// server lists as a button). It shows what the view says (DIVINITY.md,
// "View") and offers only what the frame's `legal` lists: the rules are
// the server's.

import { api, Connection } from "./net.js";
import { h, s, showError, setConn, redrawKeepingFocus } from "./ui.js";
import { remember, seatOf } from "./seats.js";

export const ORIGINS = ["ifan", "sebille", "red_prince", "fane", "lohse", "beast", "vali", "tanguistal", "farzanah", "cassian"];

const words = (id) => String(id ?? "").replaceAll("_", " ");
const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

/// `/campaign/ID`: who sits where, the Origins, the join link while seats
/// are free, then the current location (polled: a lobby page, no socket).
export function campaignPage(app, id, go) {
  const mine = seatOf(id);
  const root = h("section", { class: "campaign", "data-test": "campaign", "data-campaign-id": id });
  app.append(root);
  let timer = null;
  let stopped = false;
  const draw = async () => {
    let st;
    try {
      st = await api("GET", `/api/campaigns/${id}`, undefined, mine?.token);
    } catch (e) {
      root.replaceChildren(h("p", {}, `Could not load the campaign: ${e.message}`));
      showError(e.code, e.message);
      return;
    }
    if (stopped) return;
    root.dataset.stage = st.stage;
    const taken = new Set(st.seats.map((x) => x.label).filter(Boolean));
    const seats = h("ul", { class: "list", "data-test": "campaign-seats" },
      st.seats.map((x) => h("li", { "data-test": "campaign-seat", "data-seat": x.seat, "data-taken": String(x.taken) },
        `Seat ${x.seat}${x.seat === st.you ? " (you)" : ""}: `,
        x.taken ? (x.label ? cap(words(x.label)) : "no Origin yet") : "free",
        x.connected ? " · connected" : "")));
    const parts = [h("h2", {}, "Divinity campaign"), seats];
    if (mine?.join_code && st.seats.some((x) => !x.taken)) {
      const link = `${location.origin}/campaign-join/${mine.join_code}`;
      parts.push(h("p", {}, "Invite your party: ", h("a", { href: link, "data-test": "join-link" }, link)));
    }
    if (st.stage === "choosing" && st.you != null) {
      const own = st.seats.find((x) => x.seat === st.you)?.label;
      parts.push(h("div", { class: "origins", "data-test": "origins" },
        h("p", {}, own ? `You play ${cap(words(own))}; you may change until the party sets out.` : "Choose your Origin:"),
        ORIGINS.map((o) => h("button", {
          "data-test": "origin", "data-origin": o, disabled: taken.has(o) && o !== own ? true : undefined,
          class: o === own ? "primary" : undefined,
          onclick: async () => {
            try { await api("POST", `/api/campaigns/${id}/choose`, { choice: { origin: o } }, mine.token); draw(); } catch (e) { showError(e.code, e.message); }
          },
        }, cap(words(o))))));
    }
    if (st.stage === "between" && st.you != null) {
      parts.push(h("button", { class: "primary", "data-test": "next-location", onclick: async () => {
        try { await api("POST", `/api/campaigns/${id}/next`, undefined, mine.token); draw(); } catch (e) { showError(e.code, e.message); }
      } }, "Set out for the next location"));
    }
    if (st.current?.match_id) {
      const cur = st.current;
      parts.push(h("p", {}, `Now: ${words(cur.standing?.location ?? "a location")}, round ${cur.standing?.round ?? "?"} `,
        h("a", { href: `/match/${cur.match_id}`, "data-link": true, "data-test": "play-location" }, st.you != null ? "Play" : "Watch")));
      // A seat goes straight to the table once the party has set out.
      if (st.you != null && mine) {
        remember(cur.match_id, { token: mine.token, seat: st.you, game: "divinity", campaign_id: id });
        stopped = true;
        go(`/match/${cur.match_id}`, true);
        return;
      }
    }
    if (st.stage === "over") parts.push(h("p", { "data-test": "campaign-over" }, "The campaign is over."));
    root.replaceChildren(...parts);
    timer = setTimeout(draw, 1500);
  };
  draw();
  return () => { stopped = true; clearTimeout(timer); };
}

/// The few actions whose words read better than their fields.
const SAID = {
  choose_round: (a) => (a.explore ? "Explore this round" : "Rest this round"),
  end_turn: () => "End the turn",
  start_turn: () => "Start your combat turn",
  accept: () => "Let the roll stand",
  reroll: (a) => `Reroll${a.dice ? ` dice ${JSON.stringify(a.dice)}` : ""}`,
  pass: () => "Pass",
  finish_interlude: () => "Set out (end the interlude)",
  visit_merchant: () => "Visit the Merchant",
};

/// An action in words: its type, then what it is about.
export function actionWords(a) {
  if (SAID[a.type]) return SAID[a.type](a);
  const rest = Object.entries(a).filter(([k]) => k !== "type")
    .map(([k, v]) => `${words(k)} ${typeof v === "object" ? JSON.stringify(v) : words(v)}`);
  return cap(words(a.type)) + (rest.length ? ` (${rest.join(", ")})` : "");
}

/// An event in words, for the log.
function eventWords(ev) {
  const rest = Object.entries(ev).filter(([k]) => k !== "type" && k !== "kind")
    .map(([k, v]) => `${words(k)} ${typeof v === "object" ? JSON.stringify(v) : words(v)}`);
  return cap(words(ev.type ?? ev.kind ?? "event")) + (rest.length ? `: ${rest.join(", ")}` : "");
}

/// Physical / magical armor, as the view adds it up.
function armorCell(a) {
  return h("td", { "data-test": "armor", "data-physical": a?.physical ?? "", "data-magical": a?.magical ?? "",
    title: a ? `${a.physical} physical armor, ${a.magical} magical armor` : undefined }, a ? `${a.physical} / ${a.magical}` : "—");
}

function statuses(track) {
  return (track?.slots ?? []).flat().filter((c) => c.face_up !== false).map((c) => words(c.card?.id)).filter(Boolean);
}

/// `/match/ID` of a Divinity location (also `/watch/ID`).
export function divinityPage(app, matchId, spectator) {
  const mine = spectator ? null : seatOf(matchId);
  const root = h("section", { class: "divinity", "data-test": "match", "data-game": "divinity", "data-seq": "-1" });
  const log = h("ol", { class: "log", "data-test": "log" });
  let view = null;
  let legal = [];
  let you = null;
  let campaignId = null;
  let control = null; // per seat: the seat acting for it, or null
  const send = (msg) => {
    const id = conn.nextId++;
    if (conn.ws?.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify({ ...msg, id }));
    else showError("not_connected", "not connected; wait for the connection to come back");
  };
  const draw = () => {
    if (!view) return;
    root.dataset.phase = view.phase?.phase ?? "";
    root.dataset.round = String(view.round ?? 0);
    const myOrigin = you != null ? view.origins?.[you] : null;
    const spaces = new Map();
    const at = (sp) => { const k = String(sp); if (!spaces.has(k)) spaces.set(k, []); return spaces.get(k); };
    (view.origins ?? []).forEach((o, i) => at(o.space).push({ who: `origin-${i}`, label: words(o.origin), kind: "origin", downed: o.downed }));
    (view.enemies ?? []).forEach((e) => at(e.space).push({ who: `enemy-${e.id}`, label: e.letter ?? words(e.kind?.boss), kind: "enemy" }));
    const map = locationMap(view, spaces);
    const origins = h("table", { class: "figures", "data-test": "origins-table" },
      h("tr", {}, h("th", {}, "Origin"), h("th", {}, "HP"), h("th", { title: "physical / magical armor" }, "Armor"), h("th", {}, "AP"), h("th", {}, "Source"), h("th", {}, "Statuses")),
      (view.origins ?? []).map((o, i) => h("tr", { "data-test": "origin-row", "data-seat": i, class: i === you ? "you" : undefined },
        h("td", {}, cap(words(o.origin)), i === you ? " (you)" : "", o.downed ? " · downed" : ""),
        h("td", {}, o.hp), armorCell(view.armor?.[i]), h("td", {}, o.ap), h("td", {}, o.source), h("td", {}, statuses(o.track).join(", ") || "—"))));
    const enemies = (view.enemies ?? []).length ? h("table", { class: "figures", "data-test": "enemies-table" },
      h("tr", {}, h("th", {}, "Enemy"), h("th", {}, "HP"), h("th", { title: "physical / magical armor" }, "Armor"), h("th", {}, "Space"), h("th", {}, "Statuses")),
      view.enemies.map((e) => h("tr", { "data-test": "enemy-row" },
        h("td", {}, e.letter ? `${e.letter} · ` : "", words(e.kind?.card ?? e.kind?.boss)),
        h("td", {}, `${e.hp}/${e.max_hp}`), armorCell(e.armor), h("td", {}, e.space), h("td", {}, statuses(e.track).join(", ") || "—")))) : null;
    const time = view.time == null ? h("p", {}, "No time limit here.") : h("div", { class: "time", "data-test": "time-track" },
      `Time ${view.time} of ${view.time_length}${view.time_paused ? " (paused)" : ""} `,
      h("progress", { max: view.time_length, value: view.time }));
    const mineBox = myOrigin ? h("div", { class: "card", "data-test": "my-origin" },
      h("h3", {}, `${cap(words(myOrigin.origin))}, level ${myOrigin.level}`),
      h("p", {}, "Skills ready: ", (myOrigin.hand ?? []).map(words).join(", ") || "none"),
      h("p", {}, "Equipped: ", (myOrigin.equipped ?? []).map(words).join(", ") || "nothing"),
      h("p", {}, "Backpack: ", (myOrigin.backpack ?? []).map(words).join(", ") || "empty"),
      h("p", {}, "Talents: ", (myOrigin.talents ?? []).map(words).join(", ") || "none")) : null;
    const dice = view.pending?.roll?.dice ?? view.enemy_roll?.roll?.dice;
    const roll = dice ? h("p", { "data-test": "dice" }, "Dice: ", dice.map((d) => h("span", { class: `die ${d.colour}` }, `${d.colour} ${d.face}`)).flatMap((x, i) => i ? [" ", x] : [x])) : null;
    const revealed = [...(view.revealed ?? []), ...(view.holding ?? [])];
    const cards = revealed.length ? h("div", { class: "card" }, h("h3", {}, "Cards in play"),
      h("ul", {}, revealed.map((c) => h("li", {}, h("b", {}, words(c.id)), ": ", c.text ?? "")))) : null;
    const interlude = view.phase?.phase === "interlude" ? interludePane(view, legal, you, (a, seat) => conn.act(a, seat)) : null;
    const acts = h("div", { class: "actions", "data-test": "legal-actions" },
      h("h3", {}, you == null ? "Watching" : view.waiting?.includes(you) ? "Your move" : "Waiting for the party"),
      legal.flatMap(({ seat, actions }) => actions.filter((a) => !(interlude && INTERLUDE.has(a.type))).map((a) => h("button", {
        "data-test": "action", "data-seat": seat, "data-type": a.type, "data-action": JSON.stringify(a),
        "data-focus": `act:${seat}:${JSON.stringify(a)}`, "data-focus-group": "actions",
        onclick: () => conn.act(a, seat),
      }, seat !== you ? `Seat ${seat}: ` : "", actionWords(a)))));
    // Take-back and hand-over: offered to every seat; the server says
    // in words when it refuses (`others_acted`, `revealed`, `cannot_hand`).
    const seatsBox = you == null ? null : h("div", { class: "card", "data-test": "seat-controls" },
      h("h3", {}, "Seats"),
      h("button", { "data-test": "take-back", "data-focus": "take-back", onclick: () => send({ type: "take_back" }) }, "Take back my last action"),
      h("ul", {}, (view.origins ?? []).map((o, seat) => {
        const by = control?.[seat] ?? null;
        const who = cap(words(o.origin));
        let buttons = [];
        if (seat === you) {
          buttons = by == null
            ? (view.origins ?? []).map((_, to) => to === you ? null
              : h("button", { "data-test": "hand", "data-seat": seat, "data-to": to, "data-focus": `hand:${seat}:${to}`, onclick: () => send({ type: "hand", seat, to }) }, `Hand to seat ${to}`))
            : [h("button", { "data-test": "hand", "data-seat": seat, "data-to": "null", onclick: () => send({ type: "hand", seat, to: null }) }, "Take my seat back")];
        } else if (by === you) {
          buttons = [h("button", { "data-test": "hand", "data-seat": seat, "data-to": "null", onclick: () => send({ type: "hand", seat, to: null }) }, "Give it back")];
        } else if (by == null) {
          buttons = [h("button", { "data-test": "hand", "data-seat": seat, "data-to": you, onclick: () => send({ type: "hand", seat, to: you }) }, "Act for it (its player is away)")];
        }
        return h("li", { "data-test": "seat-control", "data-seat": seat },
          `Seat ${seat} (${who})${by != null ? `, played by seat ${by}` : ""} `, buttons.filter(Boolean));
      })));
    redrawKeepingFocus(root, ...[
      h("header", { class: "status", "data-test": "status" },
        h("h2", {}, `${cap(words(view.location))} · level ${view.level} · round ${view.round} (${words(view.round_kind)}) · ${words(view.phase?.phase)}`),
        h("p", {}, view.waiting?.length ? `Waiting for: ${view.waiting.map((w) => cap(words(view.origins?.[w]?.origin ?? `seat ${w}`))).join(", ")}` : ""),
        campaignId ? h("a", { href: `/campaign/${campaignId}`, "data-link": true, "data-test": "campaign-link" }, "The campaign") : null),
      // In the interlude its pane comes first: the map has nothing to do.
      interlude, map, time, roll, acts, h("div", { class: "cols" }, origins, enemies), mineBox, seatsBox, cards,
      h("div", { class: "card" }, h("h3", {}, "Log"), log)].filter(Boolean));
  };
  const conn = new Connection({
    token: mine?.token,
    matchId,
    onState: setConn,
    onFrame: (f) => {
      if (f.type === "welcome" || f.type === "update") {
        if (f.type === "welcome") { you = f.seat ?? null; campaignId = f.campaign_id ?? campaignId; log.replaceChildren(); }
        if (f.view) view = f.view;
        if (f.control) control = f.control;
        if (f.taken_back != null) log.prepend(h("li", {}, `Action ${f.taken_back} taken back`));
        legal = (f.legal ?? []).filter((l) => l.actions?.length);
        if (!f.legal && you != null && f.view?.legal) legal = [{ seat: you, actions: f.view.legal }];
        for (const ev of f.events ?? []) log.prepend(h("li", {}, eventWords(ev)));
        root.dataset.seq = String(f.seq);
        draw();
      } else if (f.type === "error") {
        showError(f.code, f.message);
      }
    },
  });
  // `act` for a handed seat names it.
  conn.act = ((act) => (action, seat) => {
    if (seat != null && seat !== you) {
      const id = conn.nextId++;
      conn.ws?.send(JSON.stringify({ type: "act", id, action, seat }));
      return id;
    }
    return act.call(conn, action);
  })(conn.act);
  app.append(root);
  return () => conn.close();
}

/// The interlude's actions, drawn in its own pane rather than as plain buttons.
const INTERLUDE = new Set(["level_up", "visit_merchant", "restock", "buy", "sell", "finish_interlude"]);

const deckWords = (d) => (d.kind === "equipment" ? `level ${d.value} equipment` : words(d.value));

/// The interlude (L1340-1375): each Origin's level-up, picked from the
/// talent-and-skill pairs the server lists; the Merchant with the party's
/// gold, the wares shown, and buying, selling and restocking as the legal
/// list allows; closing the interlude. Only listed actions are offered.
function interludePane(view, legal, you, act) {
  const il = view.phase;
  const listed = (type) => legal.flatMap(({ seat, actions }) => actions.filter((a) => a.type === type).map((a) => ({ seat, a })));
  const who = (seat) => cap(words(view.origins?.[seat]?.origin ?? `seat ${seat}`));
  const button = (testId, { seat, a }, label, extra = {}) => h("button", {
    "data-test": testId, "data-seat": seat, "data-action": JSON.stringify(a),
    "data-focus": `il:${seat}:${JSON.stringify(a)}`, "data-focus-group": "actions", onclick: () => act(a, seat), ...extra,
  }, label);
  const parts = [h("h3", {}, `Interlude: on to ${words(il.to)}`)];

  // Level-ups: one choice per Origin that has one to make (a seat sees its
  // own, and any seat handed to it).
  if (il.level_up) {
    const ups = listed("level_up");
    const bySeat = new Map();
    for (const u of ups) { if (!bySeat.has(u.seat)) bySeat.set(u.seat, []); bySeat.get(u.seat).push(u.a); }
    const rows = (view.origins ?? []).map((o, seat) => {
      const done = il.leveled?.[seat];
      const options = bySeat.get(seat);
      const head = `${who(seat)}: level ${o.level}${done ? ", levelled up" : ""}`;
      if (!options) return h("li", { "data-test": "level-up-seat", "data-seat": seat, "data-done": String(!!done) }, head, done ? "" : " (choosing)");
      const sel = h("select", { "data-test": "level-up-choice", "data-focus": `lvl:${seat}`, "aria-label": `${who(seat)}'s level-up` },
        options.map((a, i) => h("option", { value: i }, `Learn ${words(a.learn)}${a.talent ? ` · talent ${words(a.talent)}` : ""}`)));
      return h("li", { "data-test": "level-up-seat", "data-seat": seat, "data-done": "false" }, head, " ", sel, " ",
        h("button", { class: "primary", "data-test": "level-up-do", "data-seat": seat, "data-focus": `lvl-do:${seat}`,
          onclick: () => { const a = options[Number(sel.value)]; if (a) act(a, seat); } }, "Level up"));
    });
    parts.push(h("div", { "data-test": "level-up" }, h("h4", {}, "Level up"), h("ul", { class: "list" }, rows)));
  }

  // The Merchant.
  const buys = listed("buy");
  const merchant = [h("h4", {}, "The Merchant"), h("p", { "data-test": "gold", "data-gold": view.gold }, `Party gold: ${view.gold}`)];
  if (!il.merchant_open) {
    const visits = listed("visit_merchant");
    merchant.push(h("p", {}, visits.length ? "Pay an equipment deck's level to see the wares:" : "The party cannot pay the Merchant's fee now."),
      visits.map((v) => button("merchant-visit", v,
        `Visit: level ${v.a.level} equipment${v.a.consumables ? ` and ${words(v.a.consumables)}` : ""} (${v.a.level} gold)`)));
  } else {
    merchant.push(h("ul", { class: "list", "data-test": "wares" }, (il.offer ?? []).map((item) => h("li", { "data-test": "ware", "data-item": item, "data-price": view.merchant?.buy?.[item] },
      h("b", {}, words(item)), " ",
      view.merchant?.buy?.[item] != null ? `(${view.merchant.buy[item]} gold) ` : "",
      buys.filter((b) => b.a.item === item).map((b) => button("buy", b, `Buy for ${who(b.a.to)}`))))));
    if (!(il.offer ?? []).length) merchant.push(h("p", {}, "Nothing on show."));
    const restocks = listed("restock");
    if (restocks.length) merchant.push(h("p", {}, "Restock: ", restocks.map((r) => button("restock", r, deckWords(r.a.deck)))));
    const sells = listed("sell");
    if (sells.length) merchant.push(h("p", {}, "Sell (half its cost): ", sells.map((x) => button("sell", x, `${x.seat !== you ? `${who(x.seat)}'s ` : ""}${words(x.a.item)}${view.merchant?.sell?.[x.a.item] != null ? ` (${view.merchant.sell[x.a.item]} gold)` : ""}`))));
  }
  parts.push(h("div", { "data-test": "merchant", "data-open": String(!!il.merchant_open) }, merchant));
  const finish = listed("finish_interlude")[0];
  if (finish) parts.push(button("finish-interlude", finish, "Set out (end the interlude)", { class: "primary" }));
  else if (il.level_up && il.leveled?.some((d) => !d)) parts.push(h("p", {}, "The party sets out once every Origin has levelled up."));
  return h("div", { class: "card interlude", "data-test": "interlude" }, parts);
}

/// The lobby's form for a new campaign.
export function campaignForm(go) {
  const seats = h("select", { "data-test": "party-size", id: "party-size" },
    [1, 2, 3, 4].map((n) => h("option", { value: n, selected: n === 3 ? true : undefined }, `${n} ${n === 1 ? "player" : "players"}`)));
  const create = async (ev) => {
    ev.preventDefault();
    try {
      const c = await api("POST", "/api/campaigns", { game: "divinity", seats: Number(seats.value), options: {} });
      remember(c.campaign_id, { token: c.token, seat: c.seat, join_code: c.join_code, game: "divinity", campaign: true });
      go(`/campaign/${c.campaign_id}`);
    } catch (e) { showError(e.code, e.message); }
  };
  return h("form", { class: "card", onsubmit: create },
    h("h2", {}, "New Divinity campaign"),
    h("div", { class: "row" }, h("label", { for: "party-size" }, "Party"), seats),
    h("div", {}, h("button", { type: "submit", class: "primary", "data-test": "create-campaign" }, "Create campaign")));
}

/// The location's printed map (`view.board`) as an SVG: spaces in columns by
/// their distance along paths from the first space, paths as lines (dashed
/// while locked), undiscovered spaces dashed, tactical spaces smaller, and
/// the figures standing in each space.
function locationMap(view, figuresAt) {
  const board = view.board ?? { spaces: [], paths: [] };
  const ix = new Map(board.spaces.map((sp, i) => [sp.space, i]));
  const edges = board.paths.map((p, k) => ({ a: ix.get(p.a), b: ix.get(p.b), locked: p.locked && !(view.map?.keys ?? []).includes(k) }));
  // Columns: breadth-first from space 0; anything unreached goes last.
  const depth = new Array(board.spaces.length).fill(-1);
  if (board.spaces.length) depth[0] = 0;
  for (let queue = board.spaces.length ? [0] : []; queue.length;) {
    const at = queue.shift();
    for (const e of edges) {
      const next = e.a === at ? e.b : e.b === at ? e.a : undefined;
      if (next !== undefined && depth[next] < 0) { depth[next] = depth[at] + 1; queue.push(next); }
    }
  }
  const last = Math.max(0, ...depth) + 1;
  const columns = [];
  depth.forEach((d, i) => { const c = d < 0 ? last : d; (columns[c] ??= []).push(i); });
  const COL = 150, ROW = 120, R = 46;
  const pos = [];
  const rows = Math.max(1, ...columns.map((c) => c?.length ?? 0));
  columns.forEach((c, x) => (c ?? []).forEach((i, y) => {
    pos[i] = [x * COL + COL / 2, (y + (rows - c.length) / 2) * ROW + ROW / 2 + 10];
  }));
  const width = Math.max(1, columns.length) * COL;
  const height = rows * ROW + 20;
  const placed = view.map?.placed ?? {};
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "location-map", "data-test": "location-map", role: "img",
    "aria-label": `the location: ${board.spaces.length} spaces, ${edges.length} paths` },
    edges.filter((e) => pos[e.a] && pos[e.b]).map((e) => s("line", {
      x1: pos[e.a][0], y1: pos[e.a][1], x2: pos[e.b][0], y2: pos[e.b][1],
      class: `link${e.locked ? " locked" : ""}`, "data-test": "path", "data-locked": String(e.locked),
    })),
    board.spaces.map((sp, i) => {
      const [cx, cy] = pos[i];
      const hidden = sp.locked && placed[i] === undefined;
      const here = figuresAt.get(String(i)) ?? [];
      const title = `${sp.name || (sp.number != null ? `space ${sp.number}` : "tactical space")}${placed[i] ? ` · ${words(placed[i])}` : ""}`;
      return s("g", { "data-test": "space", "data-space": i, "data-id": sp.space, "data-tactical": String(sp.number == null), "data-undiscovered": String(hidden) },
        s("title", {}, title),
        s("circle", { cx, cy, r: sp.number == null ? R * 0.7 : R, class: `space${hidden ? " undiscovered" : ""}${sp.number == null ? " tactical" : ""}` }),
        s("text", { x: cx, y: cy - R - 4, "text-anchor": "middle", class: "space-name" }, title.length > 26 ? `${title.slice(0, 25)}…` : title),
        here.map((f, j) => s("text", { x: cx, y: cy - 8 + j * 15, "text-anchor": "middle",
          class: `figure ${f.kind}${f.downed ? " downed" : ""}`, "data-test": "figure", "data-who": f.who }, f.label)));
    }));
}
