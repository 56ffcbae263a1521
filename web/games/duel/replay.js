// The replay viewer (/replay/ID): a finished duel's public log stepped
// through on the board, as a spectator saw it after each record. The
// browser cannot run the engine: the server folds the log, checks it as
// `athlas verify` does and serves one step at a time
// (`GET /api/matches/{id}/replay?seq=N`, PROTOCOL.md); this page says what
// the server checked and how to check it again.

import { api } from "../../net.js";
import { h } from "../../dom.js";
import { seatOf } from "../../seats.js";
import { loadCatalogue, genusOf } from "./cards.js";
import { boardSvg, key } from "./board.js";
import { endingWords } from "./end.js";
import { setSeatNames } from "./names.js";

/// Steps kept in memory at once (a step is a whole view, ~10 KB).
const KEPT = 64;

export function replayPage(root, matchId) {
  setSeatNames([]); // no duel page's names carried over: the replay says "Seat N"
  const page = h("section", { class: "replay", "data-test": "replay", "data-match-id": matchId, "data-ready": "false" },
    h("p", {}, "Loading the replay…"));
  root.append(page);
  const steps = new Map(); // seq -> step, the latest asked last
  let last = null, seq = null, verified = null, closed = false;
  let want = null; // the seq the reader asked for last (answers may cross)

  async function fetchStep(n) {
    if (steps.has(n)) {
      const s = steps.get(n);
      steps.delete(n);
      steps.set(n, s);
      return s;
    }
    const s = await api("GET", `/api/matches/${matchId}/replay${n === null ? "" : `?seq=${n}`}`);
    steps.set(s.seq, s);
    if (steps.size > KEPT) steps.delete(steps.keys().next().value);
    return s;
  }

  async function show(n) {
    n = Math.max(0, Math.min(last ?? n, n));
    want = n;
    page.dataset.loading = "true";
    let s;
    try {
      s = await fetchStep(n);
    } catch (e) {
      return refused(e);
    }
    if (closed || want !== n) return;
    seq = n;
    draw(s);
    page.dataset.loading = "false";
    const url = `/replay/${matchId}?seq=${n}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
    // The next step is likely next: fetched while this one is read.
    if (n < last && !steps.has(n + 1)) fetchStep(n + 1).catch(() => {});
  }

  function refused(e) {
    page.dataset.ready = "true";
    const why = e.code === "not_finished"
      ? "This match has not ended: its replay is shown once it has (until then its seed and hidden stacks are secrets)."
      : e.code === "log_diverged"
        ? `The server could not replay this match's log to what it stored: ${e.message}`
        : `The replay could not be loaded: ${e.message}`;
    page.replaceChildren(h("div", { class: "card", "data-test": "replay-refused", "data-code": e.code ?? "" },
      h("p", {}, why), backLink()));
  }

  function backLink() {
    const mine = seatOf(matchId);
    return h("a", { href: mine ? `/match/${matchId}` : `/watch/${matchId}`, "data-link": true, "data-test": "replay-back" },
      "Back to the end screen");
  }

  // The controls stay the same elements from step to step (the slider
  // keeps its focus and drag); only their values change.
  const button = (test, label, title, to) => h("button", { "data-test": test, title, "aria-label": title, onclick: () => show(to()) }, label);
  const first = button("replay-first", "« First", "first position", () => 0);
  const prev = button("replay-prev", "‹ Previous", "previous record", () => seq - 1);
  const next = button("replay-next", "Next ›", "next record", () => seq + 1);
  const end = button("replay-last", "Last »", "last position", () => last);
  const slider = h("input", { type: "range", min: 0, step: 1, "data-test": "replay-slider", "aria-label": "move" });
  slider.addEventListener("input", () => show(Number(slider.value)));
  const position = h("span", { class: "position", "data-test": "replay-position", "aria-live": "polite" });
  const record = h("div", { class: "card record", "data-test": "replay-record" });
  const players = h("div", { class: "card replay-players", "data-test": "replay-players" });
  const board = h("div", { class: "board-wrap", "data-test": "replay-board" });
  const check = h("div", { class: "card verified", "data-test": "replay-verified" });
  const onKey = (ev) => {
    if (ev.target.closest?.("input, select, textarea")) return;
    const to = { ArrowLeft: seq - 1, ArrowRight: seq + 1, Home: 0, End: last }[ev.key];
    if (to === undefined || seq === null) return;
    ev.preventDefault();
    show(to);
  };
  document.addEventListener("keydown", onKey);

  function draw(s) {
    const v = s.view;
    page.dataset.seq = s.seq;
    page.dataset.last = last;
    page.dataset.ready = "true";
    slider.max = last;
    slider.value = s.seq;
    first.disabled = prev.disabled = s.seq === 0;
    next.disabled = end.disabled = s.seq === last;
    position.textContent = s.seq === 0 ? `Start · ${last} records` : `Record ${s.seq} of ${last}`;
    position.dataset.seq = s.seq;
    record.replaceChildren(...recordLines(s).filter(Boolean));
    players.replaceChildren(...playerLines(v));
    board.replaceChildren(boardSvg({ view: v, me: null, hot: new Map(), selected: null, cursor: null, recent: recentHexes(s), onHex: () => {}, onKey: () => {} }));
  }

  function recordLines(s) {
    const v = s.view;
    // The engine's words for the record's events when the game has them;
    // else what kind of record it was and its events' names.
    const lines = s.log?.length ? s.log : (s.events ?? []).map((e) => String(e.event).replaceAll("_", " "));
    const head = s.seq === 0 ? "Before the first record: both seats create in secret."
      : s.kind === "take_back" ? `Seat ${s.seat} took back an action.`
        : s.kind === "hand" ? `Control of a seat changed hands (seat ${s.seat}).`
          : s.log?.length ? null : `Seat ${s.seat} acted.`;
    return [
      h("h3", {}, s.seq === 0 ? "Start" : `Record ${s.seq}`, " ", h("small", {}, turnWords(v))),
      head ? h("p", { "data-test": "replay-head" }, head) : null,
      lines.length ? h("ul", { class: "log", "data-test": "replay-log" }, ...lines.map((t) => h("li", {}, t))) : null,
      v.ending ? h("p", { class: "end-reason", "data-test": "replay-ending", "data-how": v.ending.how }, endingWords(v.ending, null)) : null,
    ];
  }

  function turnWords(v) {
    if (v.phase.phase === "creation") return "Creation Phase";
    if (v.phase.phase === "finished") return "the game is over";
    return `turn ${v.turn} · seat ${v.active}'s turn`;
  }

  function playerLines(v) {
    return [h("h3", {}, "The Alphas"), ...(v.players ?? []).map((p) => h("div", { class: `seat${p.seat}`, "data-test": "replay-player", "data-seat": p.seat },
      h("strong", {}, `Seat ${p.seat}`), ` · ${p.di_count} DI card${p.di_count === 1 ? "" : "s"} left`,
      h("ul", {}, ...p.alphas.map((a) => h("li", { "data-alpha": a.index, "data-life": a.life ?? "" },
        `Alpha ${a.index + 1}`, genusOf(a.design?.cards) ? ` ${genusOf(a.design.cards).name}` : a.revealed ? "" : " (hidden)",
        a.life !== null && a.life !== undefined ? ` · life ${a.life}/${a.max_life}` : "")))))];
  }

  function verifiedCard() {
    const v = verified;
    check.dataset.ok = v ? "true" : "false";
    check.replaceChildren(
      h("h3", {}, "Verified"),
      h("p", {}, `The server replayed this log from its seed with the rules engine, as athlas verify does: ${v.records} records legal, `
        + `${v.hashes} state hashes equal to the ones stored as the game was played, ${v.commitments} commitment${v.commitments === 1 ? "" : "s"} `
        + "opened to the creations locked in, and the outcome as stored."),
      h("p", { class: "hint" }, "Check it on your own machine, trusting no server: ", h("code", {}, `athlas verify ${matchId}`)));
  }

  (async () => {
    try {
      await loadCatalogue();
      const at = Number(new URLSearchParams(location.search).get("seq") ?? 0);
      const s = await fetchStep(Number.isInteger(at) && at >= 0 ? at : 0).catch(async (e) => {
        if (e.code === "bad_request") return fetchStep(0); // a seq past the end
        throw e;
      });
      if (closed) return;
      last = s.last;
      verified = s.verified;
      page.replaceChildren(
        h("div", { class: "status-bar" }, h("span", {}, `Replay of duel ${matchId.slice(0, 8)}`), " ", backLink()),
        h("div", { class: "replay-controls", role: "toolbar", "aria-label": "replay" }, first, prev, slider, next, end, position),
        h("div", { class: "replay-main" }, h("div", { class: "board-col" }, board), h("div", { class: "replay-side" }, record, players, check)));
      verifiedCard();
      await show(s.seq);
    } catch (e) {
      refused(e);
    }
  })();

  return () => { closed = true; document.removeEventListener("keydown", onKey); };
}

/// The hexes a step's events were about, as the live page marks them.
function recentHexes(s) {
  const out = new Set();
  const unitHex = (id) => s.view.units.find((u) => u.id === id)?.hex;
  for (const e of s.events ?? []) {
    for (const hx of [e.from, e.to, e.hex, unitHex(e.target), e.event === "activated" ? unitHex(e.unit) : null]) {
      if (Array.isArray(hx)) out.add(key(hx));
    }
  }
  return out;
}
