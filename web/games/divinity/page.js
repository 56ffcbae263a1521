// `/match/ID` (and `/watch/ID`) of a Divinity location, as the book
// presents it: the location's name, its intro, goal and time track; the
// map with every figure; what the table waits for; the actions the server
// lists, in its words; the party's sheets; the log. When the location is
// over it says why and what comes next, and the page follows the party to
// its next location by itself. It shows what the view says (DIVINITY.md,
// "View") and offers only what the frame's `legal` lists.

import { Connection } from "../../net.js";
import { h, morphChildren } from "../../dom.js";
import { showError, setConn } from "../../ui.js";
import { seatOf } from "../../seats.js";
import { loadCatalogue } from "./catalogue.js";
import { seatName, playerOf, locationName, spaceName, spaceIndex, enemyById, enemyName, cardName, PHASES, ROUND_KINDS } from "./names.js";
import { entriesOf, targetOf, targetKey, cardOf, aimed, actionsPanel, confirmBox, joinNames, PROPOSED } from "./actions.js";
import { locationMap, mapLegend, figuresBySpace } from "./map.js";
import { Log } from "./log.js";
import { interludePane, INTERLUDE } from "./interlude.js";
import { originsTable, enemiesTable, originSheet, statusChips } from "./figures.js";
import { situation, cardsInPlay } from "./situation.js";
import { followCampaign, askNext, mustRestart, leaderOf } from "./campaign.js";
import { sayError } from "./errors.js";
import { envChip } from "./chips.js";
import { proposalBox, withdrawnBox, canonJson } from "./proposals.js";
import { Chat } from "../../talk.js";
import { turnSignals } from "../../signals.js";

/// The reader's choice to let enemy rolls stand without being asked.
const AUTO_LET_STAND = "athlas.divinity.auto-let-stand";
const readAutoLetStand = () => { try { return localStorage.getItem(AUTO_LET_STAND) === "1"; } catch { return false; } };

/// Seconds the outcome of an exit stays on screen before the page asks
/// for the next location by itself.
const MOVE_ON_S = 8;
/// How long "Sebille objected" stays on screen (ms).
const WITHDRAWN_MS = 6000;

export function divinityPage(app, matchId, spectator, go) {
  const mine = spectator ? null : seatOf(matchId);
  const root = h("section", { class: "divinity", "data-test": "match", "data-game": "divinity", "data-seq": "-1", "data-match-id": matchId, "data-role": spectator ? "spectator" : "player" });
  const log = new Log();
  let view = null;
  let entries = [];
  let you = null;
  let campaignId = mine?.campaign_id ?? null;
  let control = null; // per seat: the seat acting for it, or null
  let timerAt = null; // when a timed window closes (ms)
  const ui = { picked: null, focus: null, confirm: null, levelPick: {}, mapWidth: 0 };
  let follow = null;
  let campaign = null; // the campaign's status, once the location is over
  let moveAt = null; // when the page asks for the next location
  let ticker = null;
  let closed = false;
  // The table's talk: the standing proposal (as the last `proposal` frame
  // said, while its seq is the page's), the last objection for a moment,
  // the proposals sent (by id, to send as an act if the server says the
  // party does not decide it together), the chat.
  let proposal = null;
  let withdrawn = null; // {by, text, until}
  let solo = false; // the server said: no party decisions here (a leader, one player)
  const proposing = new Map();
  const chat = new Chat(matchId);
  let names = []; // the players' display names by seat (welcome, `names`)
  let autoLetStand = readAutoLetStand();
  let autoDone = null; // the seq whose enemy roll the page let stand
  let seq = -1;

  /// Send an action now (the plain `act`).
  const actNow = (e) => {
    ui.confirm = null;
    if (e.seat != null && e.seat !== you) {
      const id = conn.nextId++;
      if (conn.ws?.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify({ type: "act", id, action: e.action, seat: e.seat }));
      else showError("not_connected", "Not connected: wait for the connection to come back.");
    } else {
      conn.act(e.action);
    }
  };
  /// The proposal standing now, if any.
  const standing = () => (proposal && proposal.seq === seq ? proposal : null);
  /// Whether this entry's action is the one proposed now.
  const isProposed = (e) => { const p = standing(); return !!p && canonJson(p.action) === canonJson(e.action); };
  /// A party decision is proposed (not taken alone) while the party has
  /// no leader and more than one player; the server says when not.
  const together = (e) => e.group === "party" && !solo && you != null && (view?.origins?.length ?? 0) > 1
    && !(e.action.type === "reduce_dice" && view?.roll_reduction);
  /// What a standing proposal makes of this entry's button.
  const proposedState = (e) => (you != null && isProposed(e) ? ((standing().agreed ?? []).includes(you) ? "agreed" : "agree") : null);
  const act = (e) => {
    ui.confirm = null;
    if (!together(e)) { actNow(e); return; }
    if (isProposed(e)) {
      // The button of the proposed action agrees to it.
      if (!(standing().agreed ?? []).includes(you)) frame({ type: "agree" });
      return;
    }
    const msg = { type: "propose", action: e.action };
    if (e.seat != null && e.seat !== you) msg.seat = e.seat;
    const id = frame(msg);
    if (id != null) proposing.set(id, e);
  };
  /// An action: at once, or after the question when the server warns.
  const send = (e) => {
    if (e.warn) {
      ui.confirm = e;
      draw();
      root.querySelector("[data-test=confirm-yes]")?.focus();
      return;
    }
    act(e);
  };
  const frame = (msg) => {
    const id = conn.nextId++;
    if (conn.ws?.readyState === WebSocket.OPEN) { conn.ws.send(JSON.stringify({ ...msg, id })); return id; }
    showError("not_connected", "Not connected: wait for the connection to come back.");
    return null;
  };

  const pickedEntries = () => (ui.picked ? entries.filter((e) => `${e.seat}|${cardOf(e.action)}` === ui.picked && aimed(e)) : []);
  const onPick = (kind, id) => {
    const key = `${kind}:${id}`;
    if (ui.picked) {
      const list = pickedEntries().filter((e) => targetKey(targetOf(e.action)) === key);
      if (list.length === 1) { ui.picked = null; ui.focus = null; send(list[0]); draw(); return; }
      if (list.length > 1) { ui.focus = key; draw(); return; }
      // Not a target of the picked card: look at it instead.
      ui.picked = null;
    }
    ui.focus = ui.focus === key ? null : key;
    draw();
  };

  /// The map's card: what a click does now, the map, the chooser of the
  /// clicked figure or space, the legend.
  const mapCard = (playable) => {
    const picked = pickedEntries();
    let targets;
    let hint;
    if (picked.length) {
      targets = new Set(picked.map((e) => targetKey(targetOf(e.action))));
      const card = ui.picked.split("|")[1];
      hint = h("p", { class: "map-hint", "data-test": "map-hint", "data-mode": "pick" },
        `Click a highlighted target for ${{ summon: "your summon", ability: "your special ability", taunt: "Taunt", revive: "Revive" }[card] ?? cardName(card)}. `,
        h("button", { class: "small", "data-test": "cancel-pick", onclick: () => { ui.picked = null; ui.focus = null; draw(); } }, "Cancel"));
    } else {
      const moves = playable.filter((e) => e.action.type === "travel" || e.action.type === "move");
      targets = new Set(moves.map((e) => targetKey(targetOf(e.action))).filter(Boolean));
      hint = h("p", { class: "map-hint", "data-test": "map-hint", "data-mode": moves.length ? "move" : "look" },
        moves.length
          ? (moves[0].action.type === "travel" ? "Highlighted spaces: you can travel there. Click one to see the choice." : "Highlighted spaces: you can move there. Click one to see the choice.")
          : "Click a figure or a space to see it, and what you can do there.");
    }
    const svg = locationMap(view, { width: ui.mapWidth || Math.min(900, (root.clientWidth || window.innerWidth) - 40), you, targets, selected: ui.focus, onPick });
    return h("div", { class: "card map-card", "data-key": "map-card" },
      h("h3", {}, "The map"), hint,
      h("div", { class: "map-box", "data-key": "map-box" }, svg),
      ui.focus ? chooser(playable) : null,
      mapLegend());
  };

  /// What the clicked figure or space is, and the actions aimed at it.
  const chooser = (playable) => {
    const [kind, ...rest] = ui.focus.split(":");
    const id = rest.join(":");
    const about = [];
    let title = "";
    if (kind === "origin") {
      const o = view.origins?.[Number(id)];
      if (!o) return null;
      title = seatName(view, Number(id), you);
      about.push(h("p", {}, `${o.downed ? "Downed. " : ""}${o.hp} HP · ${o.ap} AP · ${o.source} Source · in ${spaceName(view, Number(o.space), { article: true })}`),
        h("p", {}, "Statuses: ", statusChips(o.track)));
    } else if (kind === "enemy") {
      const e = enemyById(view, id);
      if (!e) return null;
      title = enemyName(e);
      about.push(h("p", {}, `${e.hp} of ${e.max_hp} HP · armor ${e.armor?.physical ?? 0} physical, ${e.armor?.magical ?? 0} magical · ${e.fast ? "fast" : "slow"} · in ${spaceName(view, spaceIndex(view, e.space), { article: true })}`),
        h("p", {}, "Statuses: ", statusChips(e.track)));
    } else {
      const ix = spaceIndex(view, id);
      const sp = view.board?.spaces?.[ix];
      if (!sp) return null;
      title = spaceName(view, ix);
      const env = view.map?.tokens?.[ix] ?? sp.environment;
      const here = (figuresBySpace(view, you).get(ix) ?? []).map((f) => f.name);
      about.push(
        sp.number == null ? h("p", { class: "hint" }, "A tactical space: nothing to explore; in combat it counts for range and movement.") : null,
        sp.locked && view.map?.placed?.[ix] === undefined ? h("p", { class: "hint" }, "Undiscovered: a location card opens it.") : null,
        env ? h("p", {}, "Environment: ", envChip(env)) : null,
        h("p", {}, here.length ? `Here: ${joinNames(here)}.` : "Nobody is here."));
    }
    const list = (ui.picked ? pickedEntries() : playable).filter((e) => targetKey(targetOf(e.action)) === ui.focus);
    return h("div", { class: "chooser", "data-test": "map-choices", "data-kind": kind, "data-id": id },
      h("h4", {}, title, h("button", { class: "small close", "data-test": "close-choices", "aria-label": "close", onclick: () => { ui.focus = null; draw(); } }, "Close")),
      about,
      list.length ? [h("p", {}, "You can:"), h("div", { class: "buttons" }, list.map((e) => {
        const pr = proposedState(e);
        return h("button", {
          "data-test": "choice", "data-seat": e.seat, "data-type": e.action.type, "data-action": e.json,
          "data-focus": `choice:${e.key}`, title: e.warn ?? undefined, onclick: () => send(e),
          class: pr ? `proposed ${pr}` : undefined, "aria-disabled": pr === "agreed" ? "true" : undefined,
        }, e.seat !== you ? `${seatName(view, e.seat)}: ` : "", pr ? PROPOSED[pr] : "", e.text, e.warn ? " ⚠" : "");
      }))]
        : you != null ? h("p", { class: "hint" }, "Nothing you can do here now.") : null);
  };

  /// The top of the page: the location, its intro, goal and time track.
  const front = () => {
    const f = view.front ?? {};
    const ph = view.phase?.phase;
    const over = ph === "interlude" || ph === "finished";
    const others = (view.waiting ?? []).filter((s) => s !== you).map((s) => seatName(view, s));
    const mineToo = you != null && (view.waiting ?? []).includes(you);
    const waiting = mineToo ? ["you", ...others] : others;
    const secs = timerAt ? Math.max(0, Math.ceil((timerAt - Date.now()) / 1000)) : null;
    const head = h("header", { class: "loc-head", "data-test": "status", "data-waiting": (view.waiting ?? []).join(" ") },
      h("h2", {}, locationName(view)),
      h("p", { class: "round" }, over
        ? `Level ${view.level} · ${ph === "interlude" ? "the interlude: the location is behind the party" : "the location is over"}`
        : `Level ${view.level} · ${ROUND_KINDS[view.round_kind] ?? "Round"} ${view.round}${ph && PHASES[ph] && ph !== "combat" ? `: ${PHASES[ph]}` : ""}`),
      ph !== "finished" && waiting.length ? h("p", { class: `waiting${mineToo ? " yours" : ""}` },
        mineToo && !others.length ? "Your move." : `Waiting for ${joinNames(waiting)}.`,
        secs != null ? h("span", { class: "timer", "data-test": "timer", "data-ms": Math.max(0, timerAt - Date.now()) }, ` ${secs} s left to answer.`) : null) : null,
      campaignId ? h("p", {}, h("a", { href: `/campaign/${campaignId}`, "data-link": true, "data-test": "campaign-link" }, "The campaign and its party")) : null);
    const time = view.time == null
      ? h("p", { class: "time none", "data-test": "no-time-limit" }, "No time limit here: the time track is not set.")
      : h("div", { class: "time", "data-test": "time-track", "data-time": view.time, "data-length": view.time_length, "data-paused": String(!!view.time_paused) },
        h("p", {}, h("b", {}, "Time track: "), `space ${view.time} of ${view.time_length}`,
          view.time_paused ? h("b", { class: "paused" }, " · paused: time does not pass") : "",
          ` · ${Math.max(0, view.time_length - view.time)} round${view.time_length - view.time === 1 ? "" : "s"} left.`),
        h("ol", { class: "track", "aria-hidden": "true" }, Array.from({ length: view.time_length }, (_, i) =>
          h("li", { class: i + 1 < view.time ? "past" : i + 1 === view.time ? "now" : "" }))));
    const intro = f.intro ? h("details", { class: "intro", "data-test": "intro", open: view.round <= 1 ? true : undefined },
      h("summary", {}, "The story so far"), h("p", {}, f.intro)) : null;
    const goal = f.goal ? h("p", { class: "goal", "data-test": "goal" }, h("b", {}, "Goal: "), f.goal) : null;
    if (over) return [head];
    return [head, h("div", { class: "card front", "data-test": "front", "data-key": "front" }, intro, goal, time,
      h("p", { class: "hint" }, "At the end of every round the time track moves on one space.", view.time == null ? " Here it does not, until something sets it." : ""))];
  };

  /// The end of the location: why, what comes next, and the way on.
  const outcome = () => {
    const res = view.phase?.result ?? {};
    const restart = res.how === "restart";
    const over = view.campaign?.finished || campaign?.stage === "over";
    const text = view.front?.outcome ?? (restart
      ? "The party must start this location again. It keeps its items and rewards; its gold is lost."
      : "The party took an exit and leaves this location.");
    let next = null;
    if (over) {
      next = h("p", { "data-test": "campaign-over" }, "The campaign is over.");
    } else if (!campaignId) {
      next = null;
    } else if (spectator || you == null) {
      next = h("p", { class: "hint", "data-test": "moving-on" }, "This page follows the party to its next location.");
    } else if (restart || mustRestart(campaign)) {
      next = h("p", { "data-test": "moving-on" },
        h("button", { class: "primary", "data-test": "try-again", "data-focus": "try-again", onclick: async () => { await askNext(campaignId, mine?.token); follow?.now(); } }, "Try again"),
        h("span", { class: "hint" }, " Any player may start the location again; every page follows."));
    } else {
      const leader = leaderOf(campaign);
      const secs = moveAt ? Math.max(0, Math.ceil((moveAt - Date.now()) / 1000)) : MOVE_ON_S;
      next = leader != null && leader !== you
        ? h("p", { class: "hint", "data-test": "moving-on" }, `Waiting for the party's leader, ${seatName(view, leader)}, to set out.`)
        : h("p", { "data-test": "moving-on" }, secs > 0 ? `Setting out for the next location in ${secs} s. ` : "Setting out… ",
          h("button", { class: "primary", "data-test": "move-on", "data-focus": "move-on", onclick: () => { moveAt = Date.now(); follow?.now(); draw(); } }, "Set out now"));
    }
    return h("div", { class: `card outcome ${restart ? "restart" : "exit"}`, "data-test": "outcome", "data-how": restart ? "restart" : "exit", role: "status" },
      h("h2", {}, restart ? "The party must try again" : "The party made it out"),
      h("p", { class: "outcome-text" }, text), next);
  };

  /// Seats: take-back and hand-over, each seat named by its Origin.
  const seatsBox = () => {
    if (you == null) return null;
    return h("div", { class: "card", "data-test": "seat-controls", "data-key": "seats" },
      h("h3", {}, "Players"),
      h("button", { "data-test": "take-back", "data-focus": "take-back", onclick: () => frame({ type: "take_back" }) }, "Take back my last action"),
      h("p", { class: "hint" }, "Only while nobody has acted since, and nothing new was shown (no die rolled, no card turned)."),
      h("ul", { class: "list" }, (view.origins ?? []).map((o, seat) => {
        const by = control?.[seat] ?? null;
        const who = seatName(view, seat);
        let buttons = [];
        if (seat === you) {
          buttons = by == null
            ? (view.origins ?? []).map((_, to) => (to === you ? null
              : h("button", { class: "small", "data-test": "hand", "data-seat": seat, "data-to": to, "data-focus": `hand:${seat}:${to}`, onclick: () => frame({ type: "hand", seat, to }) }, `Let ${seatName(view, to)}'s player play ${who}`)))
            : [h("button", { class: "small", "data-test": "hand", "data-seat": seat, "data-to": "null", "data-focus": `hand:${seat}:null`, onclick: () => frame({ type: "hand", seat, to: null }) }, `Play ${who} again myself`)];
        } else if (by === you) {
          buttons = [h("button", { class: "small", "data-test": "hand", "data-seat": seat, "data-to": "null", "data-focus": `hand:${seat}:null`, onclick: () => frame({ type: "hand", seat, to: null }) }, `Give ${who} back`)];
        } else if (by == null) {
          buttons = [h("button", { class: "small", "data-test": "hand", "data-seat": seat, "data-to": you, "data-focus": `hand:${seat}:${you}`, onclick: () => frame({ type: "hand", seat, to: you }) }, `Play ${who} while its player is away`)];
        }
        return h("li", { "data-test": "seat-control", "data-seat": seat },
          seat === you ? `${who}: you` : playerOf(view, seat, you, names), by != null ? `, played by ${by === you ? "you" : `${seatName(view, by)}'s player`}` : "", " ", buttons.filter(Boolean));
      })));
  };

  const draw = () => {
    if (!view || closed) return;
    const ph = view.phase?.phase ?? "";
    root.dataset.phase = ph;
    root.dataset.round = String(view.round ?? 0);
    root.dataset.seat = you == null ? "" : String(you);
    // What the page picked may be gone with the last update.
    if (ui.picked && !pickedEntries().length) ui.picked = null;
    if (ui.confirm && !entries.some((e) => e.key === ui.confirm.key)) ui.confirm = null;
    const interlude = ph === "interlude";
    const playable = entries.filter((e) => !(interlude && INTERLUDE.has(e.action.type)));
    const match = new Set(ui.focus ? playable.filter((e) => targetKey(targetOf(e.action)) === ui.focus).map((e) => e.key) : []);
    const panel = actionsPanel(view, you, entries, {
      picked: ui.picked, match, onAct: send, proposed: proposedState,
      together: you != null && !solo && (view.origins?.length ?? 0) > 1,
      onPick: (key) => {
        ui.picked = key;
        ui.focus = null;
        draw();
        // On a narrow screen the map is above the panel: bring it in view.
        const map = key && root.querySelector(".map-card");
        const r = map?.getBoundingClientRect();
        if (r && (r.bottom < 80 || r.top > window.innerHeight - 120)) map.scrollIntoView({ block: "start", behavior: "smooth" });
      },
    }, interlude ? INTERLUDE : new Set());
    const others = (view.origins ?? []).map((_, seat) => seat).filter((seat) => seat !== you);
    const main = h("div", { class: "loc-main", "data-key": "main" },
      interlude ? h("div", { class: "slot-interlude", "data-key": "interlude" }, interludePane(view, entries, you, {
        onAct: send, levelPick: ui.levelPick, onLevelPick: (seat, i) => { ui.levelPick[seat] = i; draw(); },
      })) : null,
      h("div", { class: "slot-situation", "data-key": "situation" }, situation(view, you)),
      h("div", { class: "slot-map", "data-key": "map" }, interlude || ph === "finished" ? null : mapCard(playable)),
      h("div", { class: "slot-party card", "data-key": "party" }, h("div", { class: "cols" }, originsTable(view, you), enemiesTable(view))),
      h("div", { class: "slot-sheets", "data-key": "sheets" },
        you != null && view.origins?.[you] ? originSheet(view, you, you) : null,
        others.length ? h("div", { class: "card" }, h("h3", {}, you == null ? "The party's sheets" : "Your friends' sheets"), others.map((seat) => originSheet(view, seat, you))) : null),
      h("div", { class: "slot-cards", "data-key": "cards" }, cardsInPlay(view)));
    const p = standing();
    if (withdrawn && withdrawn.until <= Date.now()) withdrawn = null;
    const side = h("aside", { class: "loc-side", "data-key": "side" },
      h("div", { class: "slot-proposal", "data-key": "proposal" },
        p ? proposalBox(view, you, p, { onAgree: () => frame({ type: "agree" }), onObject: () => frame({ type: "object" }) })
          : withdrawn ? withdrawnBox(view, you, withdrawn) : null),
      h("div", { class: "slot-actions", "data-key": "actions" }, ui.confirm ? confirmBox(ui.confirm, () => { if (ui.confirm) act(ui.confirm); draw(); }, () => { ui.confirm = null; draw(); }) : null, ph === "finished" ? null : panel,
        you != null && ph !== "finished" && ph !== "interlude" ? h("p", { class: "auto-let-stand hint", "data-key": "auto-let-stand" }, h("label", {},
          h("input", { type: "checkbox", "data-test": "auto-let-stand", "data-focus": "auto-let-stand", checked: autoLetStand ? true : undefined, onchange: (ev) => setAutoLetStand(ev.target.checked) }),
          " Let enemy rolls stand without asking me"),
          h("span", { class: "why" }, " (no reroll with Source then; the roll counts as it fell)")) : null),
      h("div", { class: "slot-chat", "data-key": "chat" }, chat.render(you, { nameOf: (s) => playerOf(view, s, you, names), onSend: sendChat, onMute: (on) => { chat.mute(on); draw(); } })),
      h("div", { class: "slot-seats", "data-key": "seats" }, ph === "finished" ? null : seatsBox()),
      h("div", { class: "slot-log", "data-key": "log" }, log.render()));
    const [head, frontCard] = front();
    const fresh = h("section", {}, head, ph === "finished" ? outcome() : null, frontCard ?? null, h("div", { class: "loc-grid", "data-key": "grid" }, side, main));
    // Keep the keyboard's place: the focused control, or the first of its group.
    const was = document.activeElement?.closest?.("[data-focus]");
    const key = was && root.contains(was) ? was.dataset.focus : null;
    const group = key ? was.dataset.focusGroup : null;
    morphChildren(root, fresh);
    if (key && !root.contains(document.activeElement)) {
      const el = root.querySelector(`[data-focus="${CSS.escape(key)}"]`) ?? (group ? root.querySelector(`[data-focus-group="${CSS.escape(group)}"]`) : null);
      el?.focus({ preventScroll: true });
    }
    chat.keepInView(root);
    // The map is drawn at the width it is shown.
    const box = root.querySelector(".map-box");
    const w = box?.clientWidth ?? 0;
    if (w && Math.abs(w - ui.mapWidth) > 4) { ui.mapWidth = w; queueMicrotask(draw); }
    // Once over: the campaign tells where the party goes next.
    if (ph === "finished" && campaignId && !follow) startFollowing();
    tick();
  };

  /// A one-second tick while a countdown is shown.
  const tick = () => {
    const counting = (timerAt && timerAt > Date.now()) || (moveAt && moveAt > Date.now() - 1000 && view?.phase?.phase === "finished");
    if (counting && !ticker) ticker = setInterval(() => { draw(); }, 1000);
    if (!counting && ticker) { clearInterval(ticker); ticker = null; }
  };

  const startFollowing = () => {
    const restart = view.phase?.result?.how === "restart";
    if (!restart) moveAt = Date.now() + MOVE_ON_S * 1000;
    follow = followCampaign({
      id: campaignId, token: mine?.token, seat: you, from: matchId, spectator: spectator || you == null, go,
      autoNext: (st) => moveAt != null && Date.now() >= moveAt && (leaderOf(st) == null || leaderOf(st) === you),
      onStatus: (st) => { const was = campaign?.stage; campaign = st; if (was !== st.stage) draw(); },
    });
  };

  /// A chat line: kept in the input until the server says it was heard.
  const sendChat = (text) => {
    chat.error = null;
    const id = frame({ type: "chat", text });
    if (id != null) chat.sending = { id, text };
    draw();
  };

  const setAutoLetStand = (on) => {
    autoLetStand = on;
    try { if (on) localStorage.setItem(AUTO_LET_STAND, "1"); else localStorage.removeItem(AUTO_LET_STAND); } catch { /* this page only */ }
    draw();
    letStand();
  };

  /// With the reader's leave: an enemy roll this seat is only asked to
  /// reroll or let stand is let stand, once per frame.
  const letStand = () => {
    if (!autoLetStand || you == null || !view?.enemy_roll || autoDone === seq) return;
    const mine = entries.filter((e) => e.seat === you);
    const accept = mine.find((e) => e.action.type === "accept" && e.group === "dice");
    if (!accept || !mine.every((e) => e.group === "dice")) return;
    autoDone = seq;
    actNow(accept);
  };

  const conn = new Connection({
    token: mine?.token,
    matchId,
    onState: (state) => { setConn(state); root.dataset.conn = state; },
    onFrame: (f) => {
      signals.frame(f);
      if (f.type === "welcome" || f.type === "update") {
        if (f.type === "welcome") {
          you = f.seat ?? null;
          campaignId = f.campaign_id ?? campaignId;
          // A proposal still standing comes again after the welcome.
          proposal = null;
          log.welcome(f.log);
          names = f.names ?? [];
        } else {
          log.update(f);
        }
        if (f.view) {
          // An update leaves the board and the front out when the
          // location and its ending did not change: keep ours.
          if (f.type === "update" && view) for (const part of ["board", "front"]) if (!f.view[part]) f.view[part] = view[part];
          view = f.view;
        }
        if (f.control !== undefined) control = f.control;
        timerAt = f.timer_ms != null ? Date.now() + f.timer_ms : null;
        entries = entriesOf((f.legal ?? []).filter((l) => l.actions?.length));
        root.dataset.seq = String(f.seq);
        seq = f.seq;
        // Any update ends a proposal (one made at this seq may come after).
        if (proposal && proposal.seq < seq) proposal = null;
        draw();
        letStand();
      } else if (f.type === "proposal") {
        if (f.withdrawn != null) {
          proposal = null;
          withdrawn = { by: f.withdrawn, text: f.words?.text || "the proposal", until: Date.now() + WITHDRAWN_MS };
          setTimeout(draw, WITHDRAWN_MS + 50);
        } else if (typeof f.seq === "number" && f.seq >= seq) {
          proposal = f;
          withdrawn = null;
        }
        draw();
      } else if (f.type === "chat") {
        if (chat.heard(f, root)) draw();
      } else if (f.type === "names") {
        names = f.names ?? [];
        draw();
      } else if (f.type === "error") {
        if (f.id != null && proposing.has(f.id)) {
          const e = proposing.get(f.id);
          proposing.delete(f.id);
          if (f.code === "not_a_party_decision") {
            // A leader decides, or a party of one: as an act, for the rest
            // of the match (the action, if the table still offers it).
            solo = true;
            if (entries.some((x) => x.key === e.key)) actNow(e);
            draw();
            return;
          }
        }
        if (chat.refused(f, sayError(f.code, f.message))) {
          draw();
          return;
        }
        showError(f.code, sayError(f.code, f.message));
      }
    },
  });
  const onResize = () => { ui.mapWidth = 0; draw(); };
  window.addEventListener("resize", onResize);
  app.append(root);
  const signals = turnSignals(app, { matchId, token: mine?.token });
  root.append(h("p", {}, "Loading the location…"));
  loadCatalogue().then(() => draw(), (e) => showError(e.code, `The cards could not be loaded: ${e.message}`));
  return () => {
    closed = true;
    conn.close();
    signals.close();
    follow?.stop();
    if (ticker) clearInterval(ticker);
    window.removeEventListener("resize", onResize);
  };
}
