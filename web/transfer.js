// A seat on another device (PROTOCOL.md, `POST /api/matches/{id}/transfer`
// and `POST /api/transfer/{code}`): the page holding the seat makes a
// one-time code, valid 10 minutes; the other browser opens `/transfer/CODE`,
// which redeems it for a token of its own. The seat token never leaves this
// browser: the code and its link are all that is shown or shared.

import { api } from "./net.js";
import { h } from "./dom.js";
import { remember } from "./seats.js";
import { h as el } from "./ui.js";

/// The server's refusals of a code, in words a player reads.
const REFUSALS = {
  transfer_used: "This code was already used: a code brings a seat across once. Make a new one on the device that holds the seat.",
  transfer_expired: "This code is older than its 10 minutes. Make a new one on the device that holds the seat.",
  not_found: "No seat waits under this code: check its eight letters and digits.",
  http_404: "No seat waits under this code: check its eight letters and digits.",
  no_transfer: "A campaign's seat is not moved with a code: open the campaign's own link on the other device.",
  bad_token: "This browser's seat token is no longer valid for this match.",
};
export const transferRefusal = (e) => REFUSALS[e.code] ?? e.message ?? e.code;

const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/// The "Continue on another device" card of match `matchId`; `redraw()` asks the page to draw again. Drawn by
/// the page's own redraws (web/dom.js elements).
export function transferBox(matchId, redraw) {
  const st = { busy: false, made: null, error: null };

  async function make(token) {
    if (st.busy) return;
    st.busy = true;
    st.error = null;
    redraw();
    try {
      st.made = await api("POST", `/api/matches/${matchId}/transfer`, undefined, token);
    } catch (e) {
      st.error = { code: e.code, text: transferRefusal(e) };
    } finally {
      st.busy = false;
      redraw();
    }
  }

  /// The card for the seat's `token`.
  function render(token) {
    const m = st.made;
    const live = m && m.expires_at > Date.now();
    const link = m ? new URL(m.path, location.origin).href : null;
    return h("details", { class: "card transfer", "data-test": "transfer", "data-key": "transfer", "data-state": !m ? "none" : live ? "made" : "expired" },
      h("summary", { "data-test": "transfer-toggle" }, "Continue on another device"),
      h("p", { class: "hint" }, "A one-time code brings this seat to another browser (a phone, another computer); this one keeps playing it too. It works once, for 10 minutes."),
      m ? h("div", { class: "transfer-made" },
        h("p", {}, "Code ", h("code", { "data-test": "transfer-code" }, m.code), live
          ? h("span", { "data-test": "transfer-expires", "data-expires-at": m.expires_at }, `, valid until ${clock(m.expires_at)}, once.`)
          : h("span", { "data-test": "transfer-expires", "data-expires-at": m.expires_at }, `: expired at ${clock(m.expires_at)}. Make another.`)),
        live ? h("p", {}, "On the other device open ",
          h("a", { href: link, "data-test": "transfer-link", rel: "nofollow" }, link), " ",
          h("button", { class: "small", "data-test": "transfer-copy", "data-focus": "transfer-copy", onclick: () => navigator.clipboard?.writeText(link) }, "Copy")) : null) : null,
      h("button", {
        "data-test": "transfer-make", "data-focus": "transfer-make", disabled: st.busy ? true : undefined,
        onclick: () => make(token),
      }, m ? "Make a new code" : "Make a code"),
      st.error ? h("p", { class: "chat-error", role: "alert", "data-test": "transfer-error", "data-code": st.error.code }, st.error.text) : null);
  }

  return { render };
}

/// `/transfer/CODE`: redeem the code, keep the new seat token in this
/// browser and open the match; a refusal is said in words.
export async function redeemPage(app, code, go) {
  app.append(el("p", {}, `Bringing the seat of code ${code} to this browser…`));
  try {
    const t = await api("POST", `/api/transfer/${encodeURIComponent(code)}`);
    remember(t.match_id, { token: t.token, seat: t.seat, game: t.game, stale: false });
    go(`/match/${t.match_id}`, true);
  } catch (e) {
    app.replaceChildren(el("section", { class: "card", "data-test": "transfer-refused", "data-code": e.code },
      el("h2", {}, "This code brings no seat"),
      el("p", {}, transferRefusal(e)),
      el("a", { href: "/", "data-link": true }, "Back to the lobby")));
  }
}
