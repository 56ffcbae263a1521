// A finished duel's end screen: who won and how (the view's `ending`:
// two relics taken by which unit where, a resignation and whose, a draw
// agreed), both creations as locked in with their commitments checked,
// the final board, the way to the replay, and the rematch (PROTOCOL.md:
// `POST /api/matches/{id}/rematch`).
//
// The duel page draws it in its own redraws; what the rematch needs
// between redraws (its status, the offer in flight) is kept here.

import { api } from "../../net.js";
import { showError } from "../../ui.js";
import { h } from "../../dom.js";
import { seatOf, remember } from "../../seats.js";
import { name } from "./cards.js";
import { boardSvg } from "./board.js";
import { seatName, hasName } from "./names.js";

/// How often an open rematch offer is asked about (the other seat's
/// answer is not pushed: the match's room may be gone, see rematch.rs).
const POLL_MS = 2000;

/// Go to `path` in the app without a reload: app.js routes on popstate.
export function navigate(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

const hexWords = (hx) => `[${hx[0]},${hx[1]}]`;

/// Who `seat` is to the reader `me` (a seat, or null for a spectator), at
/// a sentence's start: "You", the player's name, else "Your opponent" or
/// "Seat N".
function who(seat, me) {
  if (me !== null && seat === me) return "You";
  return me !== null && !hasName(seat) ? "Your opponent" : seatName(seat);
}

/// The ending in words, for `me`.
export function endingWords(ending, me) {
  if (!ending) return "";
  switch (ending.how) {
    case "relics": {
      const whose = ending.seat === me ? "Your" : `${who(ending.seat, me)}'s`;
      return `${whose} unit ${ending.unit} holds two relics at ${hexWords(ending.hex)}: the relics won the game.`;
    }
    case "resigned":
      return `${who(ending.seat, me)} resigned.`;
    case "draw_agreed":
      return "A draw offered and accepted.";
    default:
      return "";
  }
}

/// The title line: the result for `me`.
function title(outcome, me) {
  if (outcome.result === "draw") return "A draw";
  if (me === null) return `${seatName(outcome.seat)} won`;
  return outcome.seat === me ? "You won!" : "You lost";
}

/// The end screen of match `matchId`; `redraw()` asks the page to draw
/// again (the rematch's status changed).
export function endScreen(matchId, redraw) {
  const rm = { status: null, busy: false, polling: null, asked: false };

  // Asked about while the screen shows and nothing is settled; it stops
  // by itself once the page has moved on (no end screen of this match).
  async function poll() {
    try {
      const was = JSON.stringify(rm.status);
      rm.status = await api("GET", `/api/matches/${matchId}/rematch`);
      if (rm.status.match_id) followOffer(rm.status.match_id);
      if (JSON.stringify(rm.status) !== was) redraw();
    } catch { /* asked again at the next tick */ }
  }
  function keepPolling() {
    if (rm.polling) return;
    rm.polling = setInterval(() => {
      const shown = document.querySelector(`[data-test=end][data-match-id="${matchId}"]`);
      if (!shown || rm.status?.match_id) { clearInterval(rm.polling); rm.polling = null; return; }
      poll();
    }, POLL_MS);
  }

  /// This browser offered and the other seat accepted: the token kept
  /// from the offer is the seat in the rematch. Taken once: a later
  /// visit to this end screen only links to the rematch.
  function followOffer(newId) {
    const mine = seatOf(matchId)?.rematch;
    if (!mine || seatOf(newId)) return;
    remember(newId, { token: mine.token, seat: mine.seat, game: "duel" });
    navigate(`/match/${newId}`);
  }

  async function offerOrAccept() {
    const entry = seatOf(matchId);
    if (!entry?.token || rm.busy) return;
    rm.busy = true;
    redraw();
    try {
      const r = await api("POST", `/api/matches/${matchId}/rematch`, undefined, entry.token);
      if (r.status === "accepted") {
        remember(r.match_id, { token: r.token, seat: r.seat, game: "duel" });
        navigate(`/match/${r.match_id}`);
        return;
      }
      remember(matchId, { rematch: { token: r.token, seat: r.seat } });
      await poll();
    } catch (e) {
      showError(e.code, e.message);
      await poll();
    } finally {
      rm.busy = false;
      redraw();
    }
  }

  function rematchBox(me, campaign) {
    const st = rm.status;
    if (campaign) return null; // a campaign goes on with its next match
    if (st?.match_id) {
      const mine = me !== null && seatOf(st.match_id);
      return h("div", { class: "card rematch", "data-test": "rematch", "data-state": "accepted", "data-rematch-id": st.match_id },
        h("p", {}, mine ? "Your rematch is on: same options, seats swapped." : "The players are playing a rematch."),
        h("a", { href: mine ? `/match/${st.match_id}` : `/watch/${st.match_id}`, "data-link": true, "data-test": "rematch-go" },
          mine ? "Go to the rematch" : "Watch the rematch"));
    }
    if (me === null) return null;
    if (!st) return h("div", { class: "card rematch", "data-test": "rematch", "data-state": "loading" }, h("p", {}, "Rematch…"));
    const swapped = `same options, seats swapped: you would be seat ${1 - me}`;
    if (st.offered_by === me) {
      return h("div", { class: "card rematch", "data-test": "rematch", "data-state": "offered" },
        h("p", {}, `You offered a rematch (${swapped}). Waiting for your opponent to accept…`));
    }
    const offeredToMe = st.offered_by !== null && st.offered_by !== undefined;
    return h("div", { class: "card rematch", "data-test": "rematch", "data-state": offeredToMe ? "offered-to-you" : "none" },
      h("p", {}, offeredToMe ? `Your opponent offers a rematch (${swapped}).` : `Play again? ${swapped[0].toUpperCase()}${swapped.slice(1)}.`),
      h("button", {
        class: "primary", "data-test": offeredToMe ? "rematch-accept" : "rematch-offer", "data-focus": "rematch",
        disabled: rm.busy ? true : undefined, onclick: offerOrAccept,
      }, offeredToMe ? "Accept the rematch" : "Offer a rematch"));
  }

  /// The screen for view `v`, as the duel page's state `st` stands
  /// (`st.seat`, `st.campaign`, `st.reveals`); `commitments()` is the
  /// page's card of the seats' commitments.
  function render(v, st, commitments) {
    const me = st.seat;
    if (!rm.asked) { rm.asked = true; poll(); }
    // Spectators too: their end screen leads to the rematch once it is on.
    if (!rm.status?.match_id) keepPolling();
    const o = v.phase.outcome;
    return h("div", {
      class: "end", "data-test": "end", "data-match-id": matchId, "data-result": o.result, "data-winner": o.seat ?? "",
      "data-ending": v.ending?.how ?? "",
    },
    h("div", { class: "card end-title" },
      h("h2", { "data-test": "end-title" }, title(o, me)),
      h("p", { class: "end-reason", "data-test": "end-reason", "data-how": v.ending?.how ?? "" }, endingWords(v.ending, me)),
      h("p", { class: "end-links" },
        h("a", { href: `/replay/${matchId}`, "data-link": true, "data-test": "open-replay", class: "button" }, "Watch the replay"), " ",
        h("a", { href: "/", "data-link": true, "data-test": "back-to-lobby" }, "Back to the lobby"))),
    rematchBox(me, st.campaign),
    commitments(),
    Object.keys(st.reveals).length ? h("p", { class: "hint reveals-intro" }, "Both creations, as locked in before the first turn:") : null,
    h("div", { class: "reveals" }, ...Object.values(st.reveals).sort((a, b) => a.seat - b.seat).map((r) => h("div", { class: `card seat${r.seat}`, "data-test": "reveal", "data-seat": r.seat },
      h("h3", {}, `${seatName(r.seat)}${r.seat === me ? " (you)" : ""}`),
      h("ol", {}, ...(r.secret?.alphas ?? []).map((a) => h("li", {}, a.cards.map(name).join(", ")))),
      h("p", {}, "Divine Interventions: ", (r.secret?.di_stack ?? []).map(name).join(" → ") || "none")))),
    h("div", { class: "board-col" }, h("div", { class: "board-wrap", "data-test": "end-board" },
      boardSvg({ view: v, me, hot: new Map(), selected: null, cursor: null, onHex: () => {}, onKey: () => {} }))));
  }

  return { render };
}
