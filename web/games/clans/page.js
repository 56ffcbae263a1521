// A clan battle's page (/match/ID for a seat, /watch/ID for a spectator):
// the placement of homebases and Gods in secret, then the battlefield, then
// the end with every deck revealed and checked against its commitment.
// Everything shown comes from the server's frames: the view (CLANS.md
// "View"), the words of its legal list and the log. A click only picks
// among the actions the view lists (`view.legal`); the page never judges
// what is legal. Nothing about another seat is kept beyond the last view.

import { Connection, api } from "../../net.js";
import { showError, setConn } from "../../ui.js";
import { h, morphChildren } from "../../dom.js";
import { seatOf, remember } from "../../seats.js";
import { verifyAgainstCommitment } from "../../verify.js";
import { turnSignals } from "../../signals.js";
import { loadCatalogue, cardName } from "./cards.js";
import { boardSvg, key, tileName, SEAT_COLOUR_NAME } from "./board.js";
import { namer, playersCard, figureCard, handCard, logCard, commitmentsCard, endCard } from "./parts.js";

const PHASE = { placement: "placement", playing: "play", finished: "ended" };
const FIGURE_ACTIONS = new Set(["move", "attack", "ability", "respond"]);
const CARD_ACTIONS = new Set(["summon", "equip", "item", "runic_art", "assimilate", "terrain"]);
/// The events that show a seat playing a card of its deck.
const PLAYS = new Set(["summoned", "equipped", "item_used", "art_cast", "terrain_cast", "assimilated"]);

export function clansPage(root, matchId, spectator) {
  const mine = spectator ? null : seatOf(matchId);
  if (!spectator && !mine) {
    root.append(h("section", { "data-test": "no-seat", class: "card" },
      h("p", {}, "This browser holds no seat in this match. "),
      h("a", { href: `/watch/${matchId}`, "data-link": true, "data-test": "watch-instead" }, "Watch it instead")));
    return null;
  }
  const st = {
    seat: mine?.seat ?? null, view: null, seq: -1, status: null, words: [], names: [], records: [],
    commitments: {}, reveals: {}, verified: {}, recent: new Set(),
    played: {}, // seat -> the card ids its events showed it play (since this page loaded)
    sel: null, // null | {kind: "figure"|"card"|"home", id}
    chooser: null, // tile key whose several actions are offered
    look: null, // a figure id shown in its card
    confirmResign: false, seats: null, seatsTaken: null, conn: "connecting", everOpen: false,
  };
  const page = h("section", { class: "clans", "data-test": "match", "data-game": "clans", "data-match-id": matchId, "data-seq": -1, "data-phase": "loading",
    "data-conn": "connecting", "data-role": spectator ? "spectator" : "player" }, h("p", {}, "Connecting…"));
  root.append(page);
  const signals = turnSignals(root, { matchId, token: mine?.token });
  loadCatalogue().then(() => renderSoon(), (e) => showError(e.code, `The cards could not be loaded: ${e.message}`));
  let drawPending = null;
  const waiting = new Map();

  const conn = new Connection({
    token: mine?.token, matchId,
    onState: (state) => {
      if (state === "open") st.everOpen = true;
      st.conn = state; setConn(state); page.dataset.conn = state;
      renderSoon();
    },
    onFrame: (f) => onFrame(f),
  });

  // Whether every seat is taken yet (the invitation shows until then).
  async function checkSeats() {
    try {
      const m = await api("GET", `/api/matches/${matchId}`);
      const n = m.seats_taken?.length ?? 0;
      if (n !== st.seatsTaken || m.seats !== st.seats) { st.seatsTaken = n; st.seats = m.seats; renderSoon(); }
    } catch { /* the summary is a nicety */ }
  }
  checkSeats();
  const seatPoll = setInterval(() => { if (st.seats == null || st.seatsTaken < st.seats) checkSeats(); }, 3000);

  function onFrame(f) {
    signals.frame(f);
    switch (f.type) {
      case "welcome":
        st.seat = f.seat ?? null;
        st.names = f.names ?? [];
        st.records = [];
        for (const l of f.log ?? []) if (typeof l?.text === "string") addLine(Number(l.seq), l.text);
        st.view = f.view; st.seq = f.seq; st.status = f.status;
        st.words = wordsFor(f);
        break;
      case "update":
        if (f.seq <= st.seq) return;
        st.view = f.view; st.seq = f.seq; st.status = f.status;
        st.words = wordsFor(f);
        for (const t of f.log ?? []) if (typeof t === "string" && t) addLine(f.seq, t);
        st.recent = recentTiles(f.events ?? [], f.view);
        for (const e of f.events ?? []) if (PLAYS.has(e.event) && e.card) (st.played[e.seat] ??= new Set()).add(e.card);
        // A choice made for a view that is gone no longer holds.
        st.chooser = null; st.confirmResign = false;
        if (st.sel && !entries().some((e) => sourceOf(e.a) === selKey())) st.sel = null;
        break;
      case "ack": waiting.delete(f.id); return;
      case "names": st.names = f.names ?? []; break;
      case "commitment": st.commitments[f.seat] = f.hash; break;
      case "reveal":
        st.reveals[f.seat] = f;
        verifyAgainstCommitment(f, st.commitments[f.seat]).then((ok) => { st.verified[f.seat] = ok; renderSoon(); });
        break;
      case "error": {
        const w = f.id != null ? waiting.get(f.id) : null;
        if (f.id != null) waiting.delete(f.id);
        if (f.code === "rate_limited" && w) { setTimeout(() => act(w), 1000); return; }
        showError(f.code, f.message);
        if (f.code === "bad_token") remember(matchId, { stale: true });
        break;
      }
      default: return;
    }
    renderSoon();
  }

  function addLine(seq, text) {
    const last = st.records[st.records.length - 1];
    if (last && last.seq === seq) last.lines.push(text);
    else if (!last || last.seq < seq) st.records.push({ seq, lines: [text] });
  }

  const wordsFor = (f) => (f.legal ?? []).find((l) => l.seat === st.seat)?.words ?? [];

  /// The tiles the last update was about: a move's ends, a summon, a hit.
  function recentTiles(events, v) {
    const out = new Set();
    const at = (id) => v.figures?.find((x) => x.id === id)?.pos;
    for (const e of events) {
      if (e.event === "moved") { out.add(key(e.from)); out.add(key(e.to)); }
      if (e.event === "summoned") out.add(key(e.at));
      if (e.event === "damaged" || e.event === "healed") { const p = at(e.figure); if (p) out.add(key(p)); }
    }
    return out;
  }

  function act(a) {
    st.sel = null; st.chooser = null;
    const id = conn.act(a);
    waiting.set(id, a);
    render();
  }

  // ----- the legal list, and where each action is picked -----

  /// The view's legal actions with the server's words for each.
  function entries() {
    const v = st.view;
    return (v?.legal ?? []).map((a, i) => ({ a, json: JSON.stringify(a), text: st.words[i]?.text ?? a.type.replaceAll("_", " "), group: st.words[i]?.group ?? "other" }));
  }
  const figure = (id) => st.view?.figures?.find((f) => f.id === id) ?? null;
  const selKey = () => (st.sel ? `${st.sel.kind}:${st.sel.id}` : null);

  /// What is picked first for an action: a figure, a hand card, a homebase tile.
  function sourceOf(a) {
    if (a.type === "place") return `home:${key(a.homebase)}`;
    if (FIGURE_ACTIONS.has(a.type)) return `figure:${a.figure}`;
    if (CARD_ACTIONS.has(a.type)) return `card:${a.card}`;
    return null;
  }
  /// The tile clicked second, if the action has one.
  function tileOf(a) {
    const fpos = (id) => figure(id)?.pos ?? null;
    switch (a.type) {
      case "place": return a.god;
      case "summon": return a.at;
      case "move": return a.to;
      case "attack": case "ability": case "respond": case "item": case "runic_art": return fpos(a.target);
      case "equip": return fpos(a.figure);
      default: return null;
    }
  }
  const hotKind = (a) => ({ place: "god", summon: "summon", move: "move" }[a.type] ?? "target");

  /// Map tile key -> what a click there does now.
  function hotTiles(list) {
    const hot = new Map();
    const add = (k, what) => { const l = hot.get(k) ?? []; if (!l.includes(what)) l.push(what); hot.set(k, l); };
    const sk = selKey();
    if (sk) {
      for (const e of list) if (sourceOf(e.a) === sk) { const t = tileOf(e.a); if (t) add(key(t), hotKind(e.a)); }
    }
    if (!sk || st.sel.kind === "figure") {
      for (const e of list) {
        const src = sourceOf(e.a);
        if (src?.startsWith("home:") && !sk) add(key(e.a.homebase), "homebase");
        if (src?.startsWith("figure:") && src !== sk) { const f = figure(e.a.figure); if (f) add(key(f.pos), "select"); }
      }
    }
    return hot;
  }

  function onTile(p) {
    const k = key(p);
    const list = entries();
    const sk = selKey();
    st.chooser = null;
    if (sk) {
      const here = list.filter((e) => sourceOf(e.a) === sk && tileOf(e.a) && key(tileOf(e.a)) === k);
      if (here.length === 1) { act(here[0].a); return; }
      if (here.length > 1) { st.chooser = k; render(); return; }
      if (st.sel.kind === "home" && st.sel.id === k) { st.sel = null; render(); return; }
    }
    if (!sk && list.some((e) => e.a.type === "place" && key(e.a.homebase) === k)) { st.sel = { kind: "home", id: k }; render(); return; }
    const f = st.view.figures?.find((x) => key(x.pos) === k);
    if (f) {
      st.look = f.id;
      st.sel = list.some((e) => sourceOf(e.a) === `figure:${f.id}`) && sk !== `figure:${f.id}` ? { kind: "figure", id: f.id } : null;
    } else {
      st.sel = null;
    }
    render();
  }

  // ----- rendering -----

  function renderSoon() {
    if (drawPending === null) drawPending = setTimeout(() => { drawPending = null; draw(); }, 16);
  }
  function render() {
    if (drawPending !== null) { clearTimeout(drawPending); drawPending = null; }
    draw();
  }

  function draw() {
    const v = st.view;
    page.dataset.seq = st.seq;
    if (!v) return;
    const phase = PHASE[v.phase.phase] ?? v.phase.phase;
    page.dataset.phase = phase;
    page.dataset.seat = st.seat ?? "";
    const who = namer(st.names, st.seat);
    const list = entries();
    const focusKey = document.activeElement?.closest?.("[data-focus]")?.dataset.focus;
    const fresh = h("section", {},
      st.everOpen && st.conn !== "open"
        ? h("div", { class: "conn-banner", "data-test": "conn-banner", role: "status" }, "The connection to the server is lost; reconnecting by itself.")
        : null,
      header(v, who),
      phase === "ended" ? endCard(v, st, who) : null,
      h("div", { class: "clans-play", "data-key": "play" },
        h("div", { class: "board-col", "data-key": "board-col" },
          modeBar(v, list, who),
          h("div", { class: "board-wrap clans-board-wrap", "data-key": "board-wrap" },
            boardSvg(v, { hot: phase === "ended" ? new Map() : hotTiles(list), selected: selTile(), recent: st.recent, onTile, me: st.seat })),
          chooserBox(v, list),
          legend(v)),
        h("div", { class: "side-col", "data-key": "side-col" },
          windowBox(v, list, who),
          actionsBox(v, list),
          lookBox(v, who),
          handBox(v, list),
          playersCard(v, st.seat, who),
          commitmentsCard(st, who),
          logCard(st.records))));
    morphChildren(page, fresh);
    if (focusKey) page.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  }

  function selTile() {
    if (!st.sel) return null;
    if (st.sel.kind === "home") return st.sel.id;
    if (st.sel.kind === "figure") { const f = figure(st.sel.id); return f ? key(f.pos) : null; }
    return null;
  }

  function header(v, who) {
    const me = st.seat;
    const w = st.status?.seats ?? [];
    const waitWords = me !== null && w.includes(me) ? "your move" : `waiting for ${w.map((s) => who.you(s)).join(", ") || "—"}`;
    let text;
    if (v.phase.phase === "finished") {
      text = "The game is over.";
    } else if (v.phase.phase === "placement") {
      text = `Placement: each player places a homebase and God in secret · ${waitWords}`;
    } else {
      const whose = v.active === me ? "your" : `${who.seat(v.active)}'s`;
      const win = v.window != null ? ` · ${v.window === me ? "you" : who.seat(v.window)} may answer` : "";
      text = `Turn ${v.turn} · ${whose} turn${win} · ${waitWords}`;
    }
    const entry = seatOf(matchId);
    const link = entry?.join_code ? `${location.origin}/join/${entry.join_code}` : null;
    const missing = st.seats != null && st.seatsTaken != null && st.seatsTaken < st.seats;
    const size = (v.players?.length ?? 2) === 4 ? "2 against 2" : "1 against 1";
    return h("div", { class: "status-bar", "data-key": "status-bar" },
      h("span", { "data-test": "status", "data-waiting": w.join(" "), "data-active": v.phase.phase === "playing" ? v.active : "", "data-window": v.window ?? "" }, text),
      me === null ? h("span", { class: "tag", "data-test": "spectating" }, "spectating")
        : h("span", { class: `tag seat${me}`, "data-test": "you", "data-seat": me }, `you are ${who.seat(me)} (${SEAT_COLOUR_NAME[me]}, team ${(me % 2) + 1})`),
      h("span", { class: "hint" }, `${size} · ${v.width}×${v.height}`),
      missing && link ? h("span", { class: "share" }, `Invite the other players (${st.seatsTaken} of ${st.seats} seats taken): `,
        h("a", { href: link, "data-test": "join-link", rel: "nofollow" }, link), " ",
        h("button", { class: "small", "data-test": "copy-link", onclick: () => navigator.clipboard?.writeText(link) }, "Copy")) : null,
      !missing && st.seats != null && me !== null && v.phase.phase === "placement" ? h("span", { class: "tag", "data-test": "all-joined" }, "every seat is taken") : null,
      me === null ? null : h("a", { href: `/watch/${matchId}`, "data-link": true, class: "small-link", "data-test": "watch-link" }, "spectator view"));
  }

  /// The line above the board: what a click picks now.
  function modeBar(v, list, who) {
    let text;
    let mode = "look";
    const cancel = st.sel ? h("button", { class: "small", "data-test": "cancel-mode", onclick: () => { st.sel = null; st.chooser = null; render(); } }, "Cancel") : null;
    if (v.phase.phase === "finished") {
      text = "The final field.";
    } else if (st.sel?.kind === "home") {
      mode = "god";
      text = `Homebase on ${tileName(st.sel.id.split(",").map(Number))}: now click a highlighted tile next to it for your God.`;
    } else if (st.sel?.kind === "figure") {
      mode = "figure";
      const f = figure(st.sel.id);
      text = `${cardName(f?.card)} ${st.sel.id}: click a green tile to move, a red-ringed figure to attack or use an ability.`;
    } else if (st.sel?.kind === "card") {
      mode = "card";
      text = `${cardName(st.sel.id)}: click a highlighted tile.`;
    } else if (list.some((e) => e.a.type === "place")) {
      mode = "homebase";
      text = "Click a highlighted tile of your side for your homebase (hidden from the others until all have placed).";
    } else if (v.window != null && v.window === st.seat) {
      mode = "answer";
      text = "Answer with an (OT) ability of one of your allies (click it, then its target, or use the buttons), or pass.";
    } else if (list.length) {
      mode = "play";
      text = "Click one of your figures to move or act with it, or a card of your hand to play it.";
    } else if (v.phase.phase === "placement" && st.seat != null) {
      text = "Placed. Waiting for the others to place; then every placement is revealed.";
    } else {
      text = `Waiting for ${(st.status?.seats ?? []).map((s) => who.you(s)).join(", ")}.`;
    }
    return h("div", { class: "mode-bar", "data-test": "mode", "data-mode": mode, "data-key": "mode" }, h("span", {}, text), cancel);
  }

  /// The actions aimed at one tile, when there are several.
  function chooserBox(v, list) {
    if (!st.chooser) return null;
    const sk = selKey();
    const here = list.filter((e) => sourceOf(e.a) === sk && tileOf(e.a) && key(tileOf(e.a)) === st.chooser);
    if (!here.length) return null;
    const [x, y] = st.chooser.split(",").map(Number);
    return h("div", { class: "card choices", "data-test": "choices", "data-x": x, "data-y": y, "data-key": "choices" },
      h("h4", {}, `On ${tileName([x, y])}:`),
      h("div", { class: "buttons" }, here.map((e) => h("button", { "data-test": "choice", "data-type": e.a.type, "data-action": e.json, "data-focus": `choice:${e.json}`, onclick: () => act(e.a) }, e.text))),
      h("button", { class: "small", "data-test": "close-choices", onclick: () => { st.chooser = null; render(); } }, "Close"));
  }

  function legend(v) {
    const terr = new Set((v.rows ?? []).join(""));
    return h("div", { class: "legend clans-legend", "data-key": "legend" },
      h("span", { class: "t ground" }, "Ground"),
      terr.has("F") ? h("span", { class: "t forest" }, "♣ Forest: costs 2 steps, or ends the move") : null,
      terr.has("W") ? h("span", { class: "t water" }, "≈ Water: closed") : null,
      terr.has("M") ? h("span", { class: "t mountain" }, "▲ Mountain: closed") : null,
      h("span", {}, "⌂ homebase · ♛ God (gold ring) · number: the figure's id, under it its HP · faded: has had its turn"),
      h("span", {}, "Team 1: blue (seat 0), teal (seat 2) · Team 2: red (seat 1), orange (seat 3)"));
  }

  /// The response window: who may answer, and this seat's answers.
  function windowBox(v, list, who) {
    if (v.window == null) return null;
    const mineNow = v.window === st.seat;
    const answers = list.filter((e) => e.a.type === "respond" || e.a.type === "pass");
    return h("div", { class: "card window", "data-test": "window", "data-seat": v.window, "data-mine": String(mineNow), "data-key": "window" },
      h("h3", {}, mineNow ? "You may answer" : `${who.seat(v.window)} may answer`),
      h("p", { class: "hint" }, mineNow
        ? "One of your allies may use an (OT) ability now, or let the turn go on."
        : "An opponent may answer with an (OT) ability before the turn goes on."),
      mineNow ? h("div", { class: "buttons", "data-test": "answers" }, answers.map((e) => actionButton(e, e.a.type === "pass" ? "" : "primary"))) : null);
  }

  function actionButton(e, cls = "") {
    return h("button", { class: cls || undefined, "data-test": "action", "data-type": e.a.type, "data-action": e.json, "data-focus": `action:${e.json}`, "data-focus-group": "actions", onclick: () => act(e.a) }, e.text);
  }

  /// The turn's plain actions (end the turn), resigning, and every legal
  /// action in one list (the keyboard's sure way).
  function actionsBox(v, list) {
    if (v.phase.phase === "finished" || st.seat == null) return null;
    const plain = list.filter((e) => e.a.type === "end_turn");
    const me = st.seat;
    const out = me != null && v.players?.[me]?.out;
    const sel = list.length ? h("select", { "data-test": "any-action", "data-focus": "any-action", "aria-label": "every legal action" },
      list.map((e, i) => h("option", { value: i, "data-action": e.json }, e.text))) : null;
    return h("div", { class: "card clans-actions", "data-test": "actions", "data-key": "actions" },
      h("h3", {}, "Actions"),
      plain.length ? h("div", { class: "buttons" }, plain.map((e) => actionButton(e, "primary"))) : h("p", { class: "hint" }, list.length ? "Pick on the field or in your hand." : "Nothing to do now."),
      sel ? h("details", { class: "all-actions", "data-key": "all-actions" },
        h("summary", { "data-test": "all-actions-toggle" }, `Every legal action (${list.length})`),
        sel, " ", h("button", { "data-test": "any-action-do", onclick: () => { const e = list[Number(sel.value)]; if (e) act(e.a); } }, "Do it")) : null,
      me != null && !out ? h("div", { class: "resign" }, st.confirmResign
        ? [h("span", {}, "Resign? Your God leaves the field as if it fell. "),
          h("button", { "data-test": "resign-confirm", onclick: () => act({ type: "resign" }) }, "Yes, resign"), " ",
          h("button", { "data-test": "resign-cancel", onclick: () => { st.confirmResign = false; render(); } }, "No")]
        : h("button", { class: "small", "data-test": "resign", onclick: () => { st.confirmResign = true; render(); } }, "Resign…")) : null);
  }

  function lookBox(v) {
    const f = st.look != null ? figure(st.look) : null;
    if (!f) return null;
    return h("div", { class: "card", "data-key": "look" }, figureCard(v, f, namer(st.names, st.seat), () => { st.look = null; render(); }));
  }

  /// The reader's own unplayed cards, with their texts; a card that can be
  /// played now has its button (and its untargeted plays as actions).
  function handBox(v, list) {
    if (!v.hand) return null;
    const bySource = new Map();
    for (const e of list) { const s = sourceOf(e.a); if (s?.startsWith("card:")) bySource.set(s, [...(bySource.get(s) ?? []), e]); }
    const one = (id, kind) => {
      const es = bySource.get(`card:${id}`) ?? [];
      const aimed = es.filter((e) => tileOf(e.a));
      const plain = es.filter((e) => !tileOf(e.a));
      const picked = st.sel?.kind === "card" && st.sel.id === id;
      return handCard(id, kind, {
        picked, playable: aimed.length > 0,
        onPick: () => { st.sel = picked ? null : { kind: "card", id }; st.chooser = null; render(); },
        buttons: plain.length ? h("div", { class: "buttons" }, plain.map((e) => actionButton(e, "small"))) : null,
      });
    };
    return h("div", { class: "card clans-hand", "data-test": "hand", "data-key": "hand", "data-allies": v.hand.allies.length, "data-tactics": v.hand.tactics.length },
      h("h3", {}, "Your hand"),
      h("p", { class: "hint" }, "Face down to everyone else, your teammate included. Nobody draws: any card can be played once its SP and EXP are paid."),
      h("h4", {}, `Allies (${v.hand.allies.length})`),
      h("ul", { class: "clans-cards", "data-test": "hand-allies" }, v.hand.allies.map((id) => one(id, "ally"))),
      h("h4", {}, `Tactics (${v.hand.tactics.length})`),
      h("ul", { class: "clans-cards", "data-test": "hand-tactics" }, v.hand.tactics.map((id) => one(id, "tactic"))));
  }

  return () => {
    conn.close();
    signals.close();
    clearInterval(seatPoll);
    if (drawPending !== null) clearTimeout(drawPending);
  };
}

