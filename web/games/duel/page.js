// A duel's page (/match/ID for a seat, /watch/ID for a spectator): the
// Creation Phase, then the board, then the end screen. Everything shown
// comes from the server's frames; the actions offered are the view's
// `legal` list only (plus resign and auto-pass, which the protocol accepts
// without listing). Nothing is kept about the other seat beyond what the
// server sent in the last view, the events and, at the end, the reveals.

import { Connection, api } from "../../net.js";
import { showError, setConn } from "../../ui.js";
import { h, morphChildren } from "../../dom.js";
import { seatOf, remember } from "../../seats.js";
import { unitName, unitFor, hexName, seatName, setSeatNames, hasName } from "./names.js";
import { duelChat } from "./chat.js";
import { transferBox } from "../../transfer.js";
import { DuelLog } from "./log.js";
import { verifyAgainstCommitment } from "../../verify.js";
import { turnSignals } from "../../signals.js";
import { loadCatalogue, name, card, statLine, genusOf } from "./cards.js";
import { creationPane, newDraft } from "./creation.js";
import { boardSvg, anchors, kindOf, key } from "./board.js";
import { endScreen } from "./end.js";
import { answerBox, answering, AutoPassNote, toggle as passWhenUnable } from "./answer.js";
import { UnitCard, conditionWords } from "./unitcard.js";
import { HexChooser } from "./hexes.js";

const PHASE = { creation: "creation", command: "play", finished: "ended" };
const DROWN_LOSS = 5; // engine/src/duel/state.rs: life an Alpha loses when its unit drowns

export function duelPage(root, matchId, spectator) {
  const mine = spectator ? null : seatOf(matchId);
  if (!spectator && !mine) {
    root.append(h("section", { "data-test": "no-seat", class: "card" },
      h("p", {}, "This browser holds no seat in this match. "),
      h("a", { href: `/watch/${matchId}`, "data-link": true, "data-test": "watch-instead" }, "Watch it instead")));
    return null;
  }
  const st = {
    matchId, seat: mine?.seat ?? null, view: null, seq: -1, log: new DuelLog(), words: [], campaign: false,
    commitments: {}, reveals: {}, verified: {}, draft: null, creationError: null,
    timer: null, timerAt: 0, conn: "connecting",
    mode: null,        // null | "di": what clicks on the board pick
    power: null,       // a card id: only that card's powers are picked on the board
    selected: null,    // hex key of the selected hex
    cursor: null,      // hex key holding the board's keyboard focus
    confirmResign: false, confirm: null, lastError: null,
  };
  setSeatNames([]); // until this match's welcome names its seats
  const page = h("section", { class: "duel", "data-test": "match", "data-match-id": matchId, "data-seq": -1, "data-phase": "loading", "data-conn": "connecting",
    "data-role": spectator ? "spectator" : "player" }, h("p", {}, "Connecting…"));
  root.append(page);
  const signals = turnSignals(root, { matchId, token: mine?.token });
  loadCatalogue().then(() => renderSoon(), (e) => showError(e.code, `The cards could not be loaded: ${e.message}`));

  let drawPending = null; // a redraw waiting for the end of a burst of frames
  const end = endScreen(matchId, () => renderSoon());
  const waiting = new Map(); // act id -> {action, onError}
  const autoPass = new AutoPassNote(); // tells a pass the server made for this seat
  const unitCard = new UnitCard(() => render()); // a unit's card, on hover or tap
  // An entry offering a choice of several hexes (Flood, Tsunami), being chosen on the board.
  const chooser = new HexChooser({ send: (a) => { st.mode = null; act(a); render(); }, render: () => render() });
  const conn = new Connection({
    token: mine?.token, matchId,
    onState: (state) => {
      if (state === "open") st.everOpen = true;
      st.conn = state; setConn(state); page.dataset.conn = state;
      renderSoon();
    },
    onFrame: (f) => onFrame(f),
  });
  const talk = duelChat(matchId, conn, page, () => renderSoon()); // the table's chat
  const transfer = transferBox(matchId, () => renderSoon()); // this seat on another device
  // The first welcome brings the whole log in words (welcome.log);
  // reconnects resume from the last seq seen (net.js keeps it).
  const tick = setInterval(renderTimer, 250);
  // Whether the other seat is taken yet (the invitation is shown until then).
  st.seatsTaken = null;
  async function checkSeats() {
    try {
      const m = await api("GET", `/api/matches/${matchId}`);
      const n = m.seats_taken?.length ?? 0;
      if (n !== st.seatsTaken) { st.seatsTaken = n; renderSoon(); }
    } catch { /* the lobby summary is a nicety */ }
  }
  checkSeats();
  const seatPoll = setInterval(() => { if (st.seatsTaken !== null && st.seatsTaken < 2 && st.view?.phase.phase === "creation") checkSeats(); }, 3000);

  /// The question to ask before sending `a`, if any (spares a slip; the
  /// server stays the judge): walking into water, drowning, discarding.
  function question(a, v) {
    const u = v.activation ? v.units.find((x) => x.id === v.activation.unit) : null;
    const drowns = (x) => x && !x.flying && !(v.players[x.owner]?.alphas?.[x.alpha]?.design?.cards ?? [])
      .some((id) => (card(id)?.passives ?? []).some((p) => p.type === "water_walker"));
    const terrainAt = (hx) => v.hexes.find((e) => key(e.hex) === key(hx))?.terrain;
    if (a.type === "move" && u && terrainAt(a.to) === "water" && drowns(u)) {
      return `Unit ${u.id} moves into water at ${hexName(a.to)} and drowns: its Alpha loses ${DROWN_LOSS} life. Move?`;
    }
    if (a.type === "end_activation" && u && v.activation.started_in_water && terrainAt(u.hex) === "water" && drowns(u)) {
      return `Unit ${u.id} started and ends this activation in water: it drowns, its Alpha loses ${DROWN_LOSS} life. End?`;
    }
    if (a.type === "end_turn" && emptyFirstTurn(v)) {
      return "End your first turn with nothing summoned? It is the one turn that may summon up to three units (60 points at most); later turns summon one. End it?";
    }
    if (a.type === "discard_di") return `Discard ${a.count ?? 1} Divine Intervention card from the top of your stack? It leaves the game unused.`;
    return null;
  }

  /// Send an action a person picked: asks first when it would hurt.
  function pick(a, hx) {
    const at = hx ?? st.selected;
    st.selected = null;
    if (chooser.start(a, at)) { render(); return; }
    const q = question(a, st.view);
    if (q) {
      st.confirm = { action: a, text: q };
      render();
      page.querySelector("[data-test=confirm-yes]")?.focus();
      return;
    }
    act(a);
    render();
  }

  function act(action, onError) {
    st.lastError = null;
    autoPass.sending(action);
    const id = conn.act(action);
    waiting.set(id, { action, onError });
  }

  function onFrame(f) {
    signals.frame(f);
    if (talk.frame(f)) return;
    switch (f.type) {
      case "welcome":
        st.seat = f.seat; st.campaign = !!f.campaign_id;
        setSeatNames(f.names);
        st.log.welcome(f.log); // the match so far, whole
        st.view = f.view; st.seq = f.seq; setTimer(f.timer_ms);
        st.words = wordsFor(f);
        autoPass.frame(st.view, st.seat, f);
        break;
      case "update":
        if (f.seq <= st.seq) return; // already applied
        // An update leaves the board (hexes, players) out when it did not
        // change: keep ours.
        for (const part of ["hexes", "players"]) if (!f.view[part] && st.view) f.view[part] = st.view[part];
        st.view = f.view; st.seq = f.seq; setTimer(f.timer_ms);
        st.recent = recentHexes(f.events ?? [], f.view);
        st.log.update(f);
        st.words = wordsFor(f);
        autoPass.frame(st.view, st.seat, f);
        // A choice made for a view that is gone no longer holds.
        st.mode = null; st.power = null; st.selected = null; st.confirmResign = false; st.confirm = null;
        break;
      case "ack": waiting.delete(f.id); return;
      case "names": setSeatNames(f.names); break;
      case "commitment": st.commitments[f.seat] = f.hash; break;
      case "reveal":
        st.reveals[f.seat] = f;
        verifyAgainstCommitment(f, st.commitments[f.seat]).then((ok) => { st.verified[f.seat] = ok; renderSoon(); });
        break;
      case "error": {
        const w = f.id != null ? waiting.get(f.id) : null;
        if (f.id != null) waiting.delete(f.id);
        if (f.code === "rate_limited" && w) { setTimeout(() => act(w.action, w.onError), 1000); return; }
        showError(f.code, f.message);
        st.lastError = { code: f.code, message: f.message };
        if (f.code === "bad_token") remember(matchId, { stale: true });
        if (w?.onError) w.onError(st.lastError);
        else renderSoon();
        return;
      }
      default: return;
    }
    renderSoon();
  }

  /// The words of this seat's legal actions, in the order of `view.legal`
  /// (the server's `legal[].words`).
  function wordsFor(f) {
    return (f.legal ?? []).find((l) => l.seat === st.seat)?.words ?? [];
  }

  /// A legal action in the server's words (its place in `view.legal`).
  function say(a, v) {
    const w = st.words[legalOf(v).indexOf(a)]?.text;
    return w ?? a.type.replaceAll("_", " ");
  }

  function setTimer(ms) {
    st.timer = typeof ms === "number" ? ms : null;
    st.timerAt = performance.now();
  }

  function timeLeft() {
    return st.timer === null ? null : Math.max(0, st.timer - (performance.now() - st.timerAt));
  }

  function renderTimer() {
    const left = timeLeft();
    for (const el of page.querySelectorAll("[data-test=timer]")) {
      if (left === null) { el.textContent = ""; el.dataset.ms = ""; continue; }
      el.dataset.ms = Math.round(left);
      el.textContent = `${Math.ceil(left / 1000)} s left`;
      el.classList.toggle("urgent", left < 10000);
    }
  }

  // ----- rendering -----

  // Frames come in bursts (a resume replays many updates): draw once per
  // burst. A person's click redraws at once.
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
    if (st.seat !== null && !st.draft) st.draft = newDraft(st.campaign ? 4 : 3);
    const focusKey = document.activeElement?.closest?.("[data-focus]")?.dataset.focus;
    const ctx = { st, view: v, act, render, commitments: commitmentsView };
    page.className = `duel phase-${phase}`;
    const fresh = h("section", {},
      st.everOpen && st.conn !== "open"
        ? h("div", { class: "conn-banner", "data-test": "conn-banner", role: "status" },
          "The connection to the server is lost; reconnecting by itself. Nothing is lost: the game resumes where it was.")
        : null,
      header(v),
      phase === "creation" ? creationPane(ctx) : null,
      phase === "play" ? playPane(v) : null,
      phase === "ended" ? end.render(v, st, commitmentsView) : null,
      phase === "ended" ? logCard() : null,
      phase !== "play" ? tableCard() : null);
    morphChildren(page, fresh);
    talk.drawn();
    renderTimer();
    if (focusKey) {
      const el = page.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (el) el.focus({ preventScroll: true });
    }
  }

  function header(v) {
    const me = st.seat;
    const entry = seatOf(matchId);
    let text;
    if (v.phase.phase === "finished") {
      const o = v.phase.outcome;
      text = o.result === "draw" ? "The game ended in a draw." : (me === null ? `${seatName(o.seat)} won.` : o.seat === me ? "You won!" : "You lost.");
    } else if (v.phase.phase === "creation") {
      text = "Creation Phase: each player builds three Alphas and a Divine Intervention stack in secret.";
    } else {
      const w = v.waiting_for ?? [];
      // A seat's first turn says whose first it is ("Turn 2 · first turn" read as the game's first).
      const whose = v.active === me ? "your" : `${seatName(v.active)}'s`;
      const turn = v.step?.step === "first_turn" ? `${whose} first turn` : `${whose} turn`;
      text = `Turn ${v.turn} · ${turn} · ${stepWords(v)} · ` +
        (me !== null && w.includes(me) ? "your move" : `waiting for ${w.map((s) => (s === me ? "you" : seatName(s))).join(", ") || "—"}`);
    }
    const link = entry?.join_code ? `${location.origin}/join/${entry.join_code}` : null;
    const opponentMissing = v.phase.phase === "creation" && me === 0 && link && st.seatsTaken !== 2;
    return h("div", { class: "status-bar" },
      h("span", { "data-test": "status", "data-waiting": (v.waiting_for ?? []).join(" "), "data-active": v.active ?? "" }, text),
      me === null ? h("span", { class: "tag", "data-test": "spectating" }, "spectating") : h("span", { class: `tag seat${me}`, "data-test": "you", "data-seat": me }, hasName(me) ? `you are ${seatName(me)} (seat ${me})` : `you are seat ${me}`),
      h("span", { class: "timer", "data-test": "timer", "aria-live": "off" }),
      v.phase.phase === "creation" && me === 0 && st.seatsTaken === 2 ? h("span", { class: "tag", "data-test": "opponent-joined" }, "your opponent has joined") : null,
      opponentMissing ? h("span", { class: "share" }, "Invite your opponent: ",
        h("a", { href: link, "data-test": "join-link", rel: "nofollow" }, link), " ",
        h("button", { class: "small", "data-test": "copy-link", "data-focus": "copy-link", onclick: () => navigator.clipboard?.writeText(link) }, "Copy")) : null,
      me === null ? null : h("a", { href: `/watch/${matchId}`, "data-link": true, class: "small-link", "data-test": "watch-link" }, "spectator view"));
  }

  function stepWords(v) {
    const s = v.step?.step;
    if (s === "first_turn") {
      const done = v.step.summoned ?? [];
      const sum = done.reduce((n, c) => n + c, 0);
      return done.length
        ? `${done.length} summoned for ${sum} points (up to three costing 60 at most)`
        : "summon one unit, or up to three costing 60 at most";
    }
    if (s === "activation") return v.activation ? `${unitName(v.activation.unit, v)} is active` : "activations";
    if (s === "summoning") return "summoning";
    return s ?? "";
  }

  // ----- the board -----

  function legalOf(v) { return v.legal ?? []; }

  /// The actions picked on the board in the current mode.
  function boardActions(v) {
    const legal = legalOf(v);
    if (st.mode === "di") return legal.filter((a) => a.type === "cast_di" && anchors(a, v).length);
    if (st.power) return legal.filter((a) => a.type === "use_power" && a.card === st.power && anchors(a, v).length);
    return legal.filter((a) => a.type !== "cast_di" && anchors(a, v).length);
  }

  function hotMap(v) {
    chooser.sync(v);
    if (chooser.active) return chooser.hot(v);
    const hot = new Map();
    for (const a of boardActions(v)) for (const hx of anchors(a, v)) {
      const k = key(hx);
      if (!hot.has(k)) hot.set(k, new Set());
      hot.get(k).add(kindOf(a));
    }
    return hot;
  }

  function clickHex(hx) {
    const v = st.view;
    const k = key(hx);
    st.cursor = k;
    if (chooser.active) { chooser.click(hx); render(); return; }
    const matching = boardActions(v).filter((a) => anchors(a, v).some((x) => key(x) === k));
    if (matching.length === 1 && matching[0].type !== "activate") {
      pick(matching[0], hx);
      return;
    }
    st.selected = st.selected === k && !matching.length ? null : k;
    render();
    // Bring the chooser into view (it is under the board), keeping the board put.
    page.querySelector("[data-test=choices]")?.scrollIntoView({ block: "nearest" });
  }

  function hexKey(ev, hx) {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); clickHex(hx); return; }
    if (ev.key === "Escape") { st.selected = null; st.mode = null; st.power = null; render(); return; }
    const d = moves[ev.key];
    if (!d) return;
    ev.preventDefault();
    const to = [hx[0] + d[0], hx[1] + d[1]];
    const el = page.querySelector(`[data-test=hex][data-q="${to[0]}"][data-r="${to[1]}"]`);
    if (!el) return;
    page.querySelectorAll("[data-test=hex][tabindex='0']").forEach((x) => x.setAttribute("tabindex", "-1"));
    el.setAttribute("tabindex", "0");
    st.cursor = key(to);
    el.focus();
  }

  function actionButton(a, v, extra = {}) {
    return h("button", {
      "data-test": "action", "data-type": a.type, "data-action": JSON.stringify(a), "data-focus": `act:${JSON.stringify(a)}`,
      class: extra.class ?? "", onclick: () => pick(a),
    }, extra.label ?? say(a, v));
  }

  function playPane(v) {
    const hot = hotMap(v);
    if (!st.cursor) st.cursor = key(v.hexes[Math.floor(v.hexes.length / 2)].hex);
    const svg = boardSvg({ view: v, me: st.seat, hot, selected: st.selected, cursor: st.cursor, recent: st.recent, onHex: clickHex, onKey: hexKey, onUnit: unitCard.hooks() });
    const answer = answerBox(v, {
      st, log: st.log, note: autoPass, act, button: actionButton,
      castMode: () => { st.mode = "di"; st.power = null; st.selected = null; render(); },
    });
    const alerts = [answer, drawCard(v)].filter(Boolean);
    return h("div", { class: "play" },
      alerts.length ? h("div", { class: "alerts", "data-key": "alerts" }, ...alerts) : null,
      h("div", { class: "board-col", "data-key": "board-col" },
        modeBar(v),
        confirmCard(v),
        h("div", { class: "board-wrap" }, svg, unitCard.render(v, st.seat)),
        choicesCard(v),
        legend()),
      h("aside", { class: "side", "data-key": "side" },
        optionsCard(v),
        diCard(v),
        logCard(),
        tableCard(),
        ...v.players.map((p) => playerCard(v, p)),
        activeDisCard(v),
        commitmentsView()));
  }

  function modeBar(v) {
    if (chooser.active) return chooser.bar(v, say);
    const n = boardActions(v).length;
    let text;
    if (st.mode === "di") text = `Casting ${name(v.players[st.seat]?.di_stack?.[0])}: pick a highlighted target (${n} choice${n === 1 ? "" : "s"}).`;
    else if (st.power) text = `${name(st.power)}: pick a highlighted target (${n} choice${n === 1 ? "" : "s"}).`;
    else if (st.seat === null) text = "Spectating: the board as everyone sees it.";
    else if (n) text = "Highlighted hexes: click one to act (yellow: activate, blue: summon, green: move, red: target).";
    else text = (v.waiting_for ?? []).includes(st.seat) ? "Nothing to pick on the board: see your options." : "Waiting for your opponent.";
    return h("div", { class: "mode-bar", "data-test": "mode", "data-mode": st.mode ?? (st.power ? "power" : "play"), "data-power": st.power ?? undefined },
      h("span", {}, text),
      st.mode || st.power ? h("button", { class: "small", "data-test": "cancel-mode", "data-focus": "cancel-mode", onclick: () => { st.mode = null; st.power = null; st.selected = null; render(); } }, "Cancel") : null);
  }

  function confirmCard(v) {
    if (!st.confirm) return null;
    const { action, text } = st.confirm;
    return h("div", { class: "card confirm", "data-test": "confirm", "data-type": action.type, role: "alertdialog", "aria-label": "confirm" },
      h("p", {}, text),
      h("button", { class: "danger primary", "data-test": "confirm-yes", "data-focus": "confirm-yes", onclick: () => { st.confirm = null; act(action); render(); } }, "Yes"),
      h("button", { "data-test": "confirm-no", "data-focus": "confirm-no", onclick: () => { st.confirm = null; render(); } }, "No"));
  }

  function choicesCard(v) {
    if (!st.selected) return null;
    const k = st.selected;
    const hx = k.split(",").map(Number);
    const x = v.hexes.find((e) => key(e.hex) === k);
    const here = v.units.filter((u) => key(u.hex) === k);
    const matching = boardActions(v).filter((a) => anchors(a, v).some((y) => key(y) === k));
    return h("div", { class: "card choices", "data-test": "choices", "data-q": hx[0], "data-r": hx[1] },
      h("h3", {}, `Hex ${hexName(hx)}: ${x?.terrain ?? "?"}${x?.relics ? `, ${x.relics} relic` : ""}`,
        h("button", { class: "small close", "data-test": "close-choices", "data-focus": "close-choices", "aria-label": "close", onclick: () => { st.selected = null; render(); } }, "×")),
      ...here.map((u) => unitInfo(v, u)),
      matching.length ? h("div", { class: "choice-list" }, ...matching.map((a) => h("button", {
        "data-test": "choice", "data-type": a.type, "data-action": JSON.stringify(a), "data-focus": `choice:${JSON.stringify(a)}`,
        class: a.type === "activate" ? "primary" : "", onclick: () => pick(a),
      }, say(a, v)))) : h("p", { class: "hint" }, "Nothing to do on this hex now."));
  }

  function unitInfo(v, u) {
    const alpha = v.players[u.owner]?.alphas?.[u.alpha];
    // A condition is {"type": name, ...its values}: "attack bonus kind \"melee\" amount 1".
    const conds = (u.conditions ?? []).map(conditionWords);
    return h("div", { class: "unit-info", "data-test": "unit-info", "data-unit": u.id },
      h("strong", {}, `${u.owner === st.seat ? "Your" : `${seatName(u.owner)}'s`} ${unitName(u.id, v)}`),
      h("div", { class: "stats" }, [
        alpha?.life != null ? `Alpha life ${alpha.life}/${alpha.max_life}` : null,
        `armor left ${u.armor_left[0]} physical, ${u.armor_left[1]} magical`,
        u.flying ? "flying" : null, u.holds_relics ? "holds a relic" : null,
        u.activated ? "activated this turn" : null, u.exposed ? "exposed" : null,
        u.controller !== u.owner ? `controlled by ${seatName(u.controller)}` : null,
        ...conds].filter(Boolean).join(" · ")),
      alpha?.design ? h("ul", { class: "unit-cards" }, ...alpha.design.cards.map((id) => h("li", {}, h("strong", {}, name(id)), ": ", card(id)?.text ?? ""))) : null);
  }

  function legend() {
    return h("details", { class: "legend", "data-test": "legend" }, h("summary", { "data-test": "legend-toggle" }, "Legend"),
      h("ul", {},
        h("li", {}, "Green: plains (height 1) · brown with ▲: hill (height 2) · blue: water (height 1) · grey with ▼: crater (height 0)."),
        h("li", {}, "Thick blue or red border: a seat's summoning hex. Gold diamond: a relic."),
        h("li", {}, "Units: blue seat 0, red seat 1; circle Alpha 1, square Alpha 2, triangle Alpha 3; the number is the unit's, as the log names it (“Raider of the Deep 7”), under it its genus's initials and ♥ its Alpha's life (shared by all its units); point at a unit or tap it for its card; faded: already activated; ✈ flying; small gold diamond: holds a relic; dot: under a condition or DI."),
        h("li", {}, "Highlights: yellow ring, a unit you may activate; blue, a summoning choice; green, a move; red, a target. Gold circle: the unit acting now. Dashed purple: what the last update was about."),
        h("li", {}, "Keyboard: Tab to the board, arrow keys move between hexes, Enter or Space picks, Escape cancels.")));
  }

  function castButton(v) {
    const legal = legalOf(v).filter((a) => a.type === "cast_di");
    const top = v.players[st.seat]?.di_stack?.[0];
    const untargeted = legal.filter((a) => !anchors(a, v).length);
    if (legal.length === 1 && untargeted.length === 1) return actionButton(legal[0], v, { class: "primary" });
    return h("button", {
      class: "primary", "data-test": "cast-di", "data-card": top, "data-focus": "cast-di",
      onclick: () => { st.mode = "di"; st.power = null; st.selected = null; render(); },
    }, `Cast ${name(top)}: pick its target`);
  }

  function drawCard(v) {
    const legal = legalOf(v);
    if (v.draw_offer === null || v.draw_offer === undefined) return null;
    return h("div", { class: "card draw", "data-test": "draw-offer", "data-seat": v.draw_offer },
      h("p", {}, v.draw_offer === st.seat ? "You offered a draw; waiting for the answer." : `${seatName(v.draw_offer)} offers a draw.`),
      ...legal.filter((a) => a.type === "accept_draw" || a.type === "decline_draw").map((a) => actionButton(a, v, { class: a.type === "accept_draw" ? "primary" : "" })));
  }

  function optionsCard(v) {
    if (st.seat === null) return h("div", { class: "card", "data-test": "actions" }, h("h3", {}, "Spectating"), h("p", { class: "hint" }, "You see what both players see in public."));
    const legal = legalOf(v);
    const onBoard = legal.filter((a) => a.type !== "cast_di" && anchors(a, v).length);
    const groups = new Map();
    for (const a of onBoard) {
      const g = a.type === "use_power" ? `power:${a.card}` : a.type;
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(a);
    }
    const buttons = [];
    for (const [g, list] of groups) {
      if (g.startsWith("power:")) {
        const c = g.slice(6);
        buttons.push(h("button", {
          "data-test": "power", "data-card": c, "data-focus": `power:${c}`, class: st.power === c ? "on" : "",
          onclick: () => { st.power = st.power === c ? null : c; st.mode = null; st.selected = null; render(); },
        }, `${name(c)}: ${list.length} target${list.length > 1 ? "s" : ""} — pick on the board`));
      } else if (g === "activate" || list.length <= 4) {
        for (const a of list) buttons.push(actionButton(a, v));
      } else {
        buttons.push(h("p", { class: "hint", "data-test": "board-hint", "data-type": g },
          `${list.length} ${g === "move" ? "moves" : g === "summon" ? "summons" : g.replaceAll("_", " ")}: pick a highlighted hex.`));
      }
    }
    const plain = legal.filter((a) => !anchors(a, v).length && !["pass", "carry_relic", "accept_draw", "decline_draw", "cast_di", "discard_di"].includes(a.type));
    const waitingForMe = (v.waiting_for ?? []).includes(st.seat);
    return h("div", { class: "card actions", "data-test": "actions" },
      h("h3", {}, waitingForMe ? "Your options" : "Not your move"),
      v.activation ? h("p", { class: "stats", "data-test": "activation", "data-unit": v.activation.unit },
        `${unitFor(v.activation.unit, v, st.seat)}: ${v.activation.m} m and ${v.activation.a} a left`) : null,
      ...buttons,
      // Ending an empty first turn is offered, not urged (it asks first too).
      ...plain.map((a) => actionButton(a, v, { class: a.type === "end_activation" || (a.type === "end_turn" && !emptyFirstTurn(v)) ? "primary" : "" })),
      allActions(v),
      resignBox(v));
  }

  /// Every legal action in one list: the keyboard's and the tests' sure way.
  function allActions(v) {
    const legal = legalOf(v);
    if (!legal.length) return null;
    const sel = h("select", { "data-test": "any-action", "data-focus": "any-action", "aria-label": "every legal action" },
      ...legal.map((a, i) => h("option", { value: i, "data-action": JSON.stringify(a) }, say(a, v))));
    return h("details", { class: "all-actions", "data-test": "all-actions" },
      h("summary", { "data-test": "all-actions-toggle" }, `Every legal action (${legal.length})`),
      sel, " ",
      h("button", { "data-test": "any-action-do", "data-focus": "any-action-do", onclick: () => { const a = legal[Number(sel.value)]; if (a) pick(a); } }, "Do it"));
  }

  function resignBox(v) {
    if (v.phase.phase === "finished") return null;
    if (!st.confirmResign) {
      return h("div", { class: "resign" }, h("button", { class: "danger", "data-test": "resign", "data-focus": "resign", onclick: () => { st.confirmResign = true; render(); page.querySelector("[data-test=resign-confirm]")?.focus(); } }, "Resign…"));
    }
    return h("div", { class: "resign confirm", role: "alertdialog", "aria-label": "confirm resigning" },
      h("span", {}, "Resign this game? Your opponent wins. "),
      h("button", { class: "danger", "data-test": "resign-confirm", "data-focus": "resign-confirm", onclick: () => { st.confirmResign = false; act({ type: "resign" }); } }, "Yes, resign"),
      h("button", { "data-test": "resign-cancel", "data-focus": "resign-cancel", onclick: () => { st.confirmResign = false; render(); } }, "No"));
  }

  function diCard(v) {
    if (st.seat === null) return null;
    const p = v.players[st.seat];
    const legal = legalOf(v);
    const stack = p?.di_stack ?? [];
    const cast = legal.filter((a) => a.type === "cast_di");
    return h("div", { class: "card di", "data-test": "di", "data-count": stack.length },
      h("h3", {}, `Your Divine Interventions (${stack.length})`),
      stack.length ? h("ol", { "data-test": "my-di-stack" }, ...stack.map((id, i) => h("li", { "data-card": id, class: i === 0 ? "next" : "" },
        h("strong", {}, name(id)), i === 0 ? " (next)" : "", h("div", { class: "text" }, card(id)?.text ?? "")))) : h("p", { class: "hint" }, "Your stack is empty."),
      p?.di_cast_this_turn ? h("p", { class: "hint" }, "You cast one this turn already.") : null,
      cast.length && !answering(v, st.seat) ? castButton(v) : null,
      ...legal.filter((a) => a.type === "discard_di").map((a) => actionButton(a, v, { class: "small" })),
      v.phase.phase === "command" ? h("label", { class: "auto-pass" },
        h("input", { type: "checkbox", "data-test": "auto-pass", "data-focus": "auto-pass", checked: p?.auto_pass ? true : undefined,
          onchange: (ev) => act({ type: "set_auto_pass", on: ev.target.checked }) }),
        " pass my response windows automatically") : null,
      passWhenUnable(v, st.seat, act));
  }

  function playerCard(v, p) {
    const you = p.seat === st.seat;
    return h("div", { class: `card player seat${p.seat}`, "data-test": "player", "data-seat": p.seat, "data-spent": p.spent, "data-di-count": p.di_count },
      h("h3", { "data-test": "player-name" }, you ? `You (${hasName(p.seat) ? seatName(p.seat) : `seat ${p.seat}`})` : seatName(p.seat), v.active === p.seat ? h("span", { class: "tag" }, "active") : null),
      h("p", { class: "stats", "data-test": "summoning-points", "data-left": v.max_points - p.spent },
        `summoning points ${v.max_points - p.spent} left of ${v.max_points} · ${p.di_count} DI card${p.di_count === 1 ? "" : "s"} in the stack`),
      h("ul", { class: "alphas" }, ...p.alphas.map((a) => {
        const g = genusOf(a.design?.cards);
        const units = v.units.filter((u) => u.owner === p.seat && u.alpha === a.index);
        return h("li", { "data-test": "alpha-status", "data-seat": p.seat, "data-alpha": a.index, "data-revealed": String(a.revealed), "data-life": a.life ?? "" },
          h("span", { class: `shape alpha${a.index}` }), h("strong", {}, `Alpha ${a.index + 1}`), g ? ` ${g.name}` : a.design ? "" : " (hidden)",
          you && !a.revealed ? h("small", {}, " not revealed yet") : null,
          a.life !== null ? h("div", { class: "life" },
            h("meter", { min: 0, max: a.max_life || 1, value: a.life, "data-test": "life", "aria-label": `Alpha ${a.index + 1} life` }),
            ` life ${a.life}/${a.max_life} · cost ${a.cost}`) : null,
          units.length ? h("div", { class: "stats" }, `units: ${units.map((u) => `${u.id} at ${hexName(u.hex)}`).join(", ")}`) : null,
          a.cubes?.length ? h("div", { class: "stats", "data-test": "cubes" }, "cubes: ", a.cubes.map(([c, n]) => `${name(c)} ${"■".repeat(n)} (${n})`).join(", ")) : null,
          a.design && (a.revealed || you) ? h("details", { class: "alpha-cards" }, h("summary", {}, "cards"),
            h("ul", {}, ...a.design.cards.map((id) => h("li", {}, h("strong", {}, name(id)), ` — ${statLine(card(id) ?? {})}. `, card(id)?.text ?? "")))) : null);
      })));
  }

  function activeDisCard(v) {
    if (!v.active_dis?.length) return null;
    return h("div", { class: "card", "data-test": "active-dis" }, h("h3", {}, "Divine Interventions in effect"),
      h("ul", {}, ...v.active_dis.map((d) => h("li", { "data-card": d.card, "data-owner": d.owner },
        `${name(d.card)} of ${d.owner === st.seat ? "yours" : seatName(d.owner)}`, d.unit != null ? ` on ${unitFor(d.unit, v, st.seat)}` : "",
        d.cubes ? ` · ${d.cubes} cube${d.cubes > 1 ? "s" : ""}` : ""))));
  }

  /// The table's chat, and for a seat in a game still on the way to take
  /// it to another device.
  function tableCard() {
    const entry = seatOf(matchId);
    const movable = st.seat !== null && entry?.token && !st.campaign && st.view?.phase.phase !== "finished";
    return h("div", { class: "table-talk", "data-key": "table-talk" }, talk.render(st.seat), movable ? transfer.render(entry.token) : null);
  }

  function logCard() {
    return st.log.render();
  }

  function commitmentsView() {
    const seats = Object.keys(st.commitments).sort();
    if (!seats.length) return null;
    return h("div", { class: "card commitments", "data-test": "commitments" }, h("h3", {}, "Commitments"),
      h("p", { class: "hint" }, "Each seat's creation was hashed when locked in; at the end the server shows it and this page checks the hash."),
      h("ul", {}, ...seats.map((seat) => {
        const ok = st.verified[seat];
        const state = !st.reveals[seat] ? "locked" : ok === undefined ? "pending" : String(ok);
        return h("li", { "data-test": "commitment", "data-seat": seat, "data-hash": st.commitments[seat], "data-verified": state },
          `${seatName(Number(seat))}${Number(seat) === st.seat ? " (you)" : ""}: `, h("code", { title: st.commitments[seat] }, st.commitments[seat].slice(0, 16) + "…"), " ",
          state === "true" ? h("strong", { class: "ok", "data-test": "verified", "data-ok": "true" }, "✔ matches what was played")
            : state === "false" ? h("strong", { class: "broken", "data-test": "verified", "data-ok": "false" }, "✘ does NOT match")
              : state === "pending" ? "checking…" : "sealed until the end");
      })));
  }

  return () => { clearInterval(tick); clearInterval(seatPoll); clearTimeout(drawPending); conn.close(); signals.close(); };
}

/// Whether the view is its active seat's first turn with nothing summoned yet.
function emptyFirstTurn(v) {
  return v.step?.step === "first_turn" && !(v.step.summoned ?? []).length;
}

/// The hexes the last update was about (shown so the other seat's move is
/// easy to follow): where units moved from and to, summons, attacks, terrain.
function recentHexes(events, view) {
  const out = new Set();
  const unitHex = (id) => view.units.find((u) => u.id === id)?.hex;
  for (const e of events) {
    for (const hx of [e.from, e.to, e.hex, unitHex(e.target), e.event === "activated" ? unitHex(e.unit) : null]) {
      if (Array.isArray(hx)) out.add(key(hx));
    }
  }
  return out;
}
