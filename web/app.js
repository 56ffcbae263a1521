// The Athlas web client: routes by path (the server answers every page path
// with this page) and draws the lobby or a game.

import { api } from "./net.js";
import { h, showError, setConn } from "./ui.js";
import { games, remember, seatOf } from "./seats.js";
import { duelPage } from "./duel.js";
import { replayPage } from "./games/duel/replay.js";
import { campaignPage, campaignForm, campaignWords } from "./games/divinity/campaign.js";
import { divinityPage } from "./games/divinity/page.js";
import { loadCatalogue } from "./games/divinity/catalogue.js";
import { originName } from "./games/divinity/names.js";
import { nameCard, nameField } from "./player.js";
import { redeemPage } from "./transfer.js";

const app = document.getElementById("app");
let leave = null; // the current page's clean-up (closes its socket)

export function go(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

async function route() {
  if (leave) { leave(); leave = null; }
  setConn("idle");
  app.replaceChildren();
  const path = location.pathname;
  let m;
  try {
    if (path === "/" || path === "") return lobby();
    if ((m = path.match(/^\/join\/([A-Za-z0-9]+)$/))) return await join(m[1]);
    if ((m = path.match(/^\/campaign-join\/([A-Za-z0-9]+)$/))) return await joinCampaign(m[1]);
    if ((m = path.match(/^\/transfer\/([A-Za-z0-9]+)$/))) return await redeemPage(app, m[1], go);
    if ((m = path.match(/^\/match\/([0-9a-f-]{36})$/))) return (leave = await gamePage(m[1], false));
    if ((m = path.match(/^\/watch\/([0-9a-f-]{36})$/))) return (leave = await gamePage(m[1], true));
    if ((m = path.match(/^\/replay\/([0-9a-f-]{36})$/))) return (leave = replayPage(app, m[1]));
    if ((m = path.match(/^\/campaign\/([0-9a-f-]{36})$/))) return (leave = campaignPage(app, m[1], go));
    app.append(h("p", {}, "No such page. ", h("a", { href: "/", "data-link": true }, "Back to the lobby")));
  } catch (e) {
    showError(e.code ?? "error", e.message);
  }
}

/// `/campaign-join/CODE`: take a free seat of a campaign (a party's link).
async function joinCampaign(code) {
  app.append(h("p", {}, `Joining the party ${code}…`));
  try {
    const c = await api("POST", `/api/campaigns/join/${encodeURIComponent(code)}`);
    remember(c.campaign_id, { token: c.token, seat: c.seat, game: "divinity", campaign: true });
    go(`/campaign/${c.campaign_id}`, true);
  } catch (e) {
    app.replaceChildren(h("p", {}, `Could not join ${code}: ${e.message}`), h("a", { href: "/", "data-link": true }, "Back to the lobby"));
    showError(e.code, e.message);
  }
}

/// A match's page by its game: the seat's saved entry says, else the lobby.
async function gamePage(id, spectator) {
  let game = spectator ? null : seatOf(id)?.game;
  if (!game) {
    try { game = (await api("GET", `/api/matches/${id}`)).game; } catch (e) { showError(e.code, e.message); game = "duel"; }
  }
  return game === "divinity" ? divinityPage(app, id, spectator, go) : duelPage(app, id, spectator);
}

/// `/join/CODE`: take the free seat, keep its token, go to the game (the
/// code page is replaced in the history so Back does not join again). A
/// code that opens no match may open a campaign (Divinity's party).
async function join(code) {
  // Your own invite link (or a link you joined by) takes you to your seat:
  // a seat of that match kept here answers it, without asking the server.
  const held = Object.entries(games()).find(([, g]) => g.join_code && g.join_code.toUpperCase() === code.toUpperCase() && !g.stale);
  if (held) return go(held[1].campaign ? `/campaign/${held[0]}` : `/match/${held[0]}`, true);
  app.append(h("p", {}, `Joining ${code}…`));
  try {
    let j;
    try {
      j = await api("POST", `/api/join/${encodeURIComponent(code)}`, nameField());
    } catch (e) {
      if (e.status !== 404) throw e;
      const c = await api("POST", `/api/campaigns/join/${encodeURIComponent(code)}`);
      remember(c.campaign_id, { token: c.token, seat: c.seat, game: "divinity", campaign: true, join_code: code.toUpperCase() });
      return go(`/campaign/${c.campaign_id}`, true);
    }
    remember(j.match_id, { token: j.token, seat: j.seat, game: "duel", join_code: code.toUpperCase() });
    go(`/match/${j.match_id}`, true);
  } catch (e) {
    // A refused name: fixed here, then joined again (no seat was taken).
    const again = e.code === "bad_name"
      ? [nameCard(e.message), h("button", { class: "primary", "data-test": "join-again", onclick: () => route() }, `Join ${code}`)]
      : [];
    app.replaceChildren(h("p", {}, `Could not join ${code}: ${e.message}`), ...again, h("a", { href: "/", "data-link": true }, "Back to the lobby"));
    showError(e.code, e.message);
  }
}

function lobby() {
  const points = h("input", { type: "number", min: 1, max: 500, value: 250, "data-test": "summoning-points", id: "points" });
  const mode = h("select", { "data-test": "mode", id: "mode" },
    h("option", { value: "correspondence" }, "Correspondence (no timers)"),
    h("option", { value: "live" }, "Live (timed response windows)"));
  const priv = h("input", { type: "checkbox", "data-test": "private", id: "private" });
  const create = async (ev) => {
    ev.preventDefault();
    const options = { summoning_points: Number(points.value), live: mode.value === "live" };
    if (priv.checked) options.private = true;
    try {
      const c = await api("POST", "/api/matches", { game: "duel", ...nameField(), options });
      remember(c.match_id, { token: c.token, seat: c.seat, join_code: c.join_code, game: "duel" });
      go(`/match/${c.match_id}`);
    } catch (e) {
      // The server's word on a name: said beside the name, to be fixed there.
      if (e.code === "bad_name") { const fixed = nameCard(e.message); names.replaceWith(fixed); names = fixed; fixed.querySelector("input")?.focus(); }
      showError(e.code, e.message);
    }
  };
  let names = nameCard();
  const form = h("form", { class: "card duel-form", onsubmit: create },
    h("h2", {}, "New duel"),
    h("div", { class: "row" }, h("label", { for: "mode" }, "Mode"), mode),
    h("div", { class: "row" }, h("label", { for: "points" }, "Summoning points"), points,
      h("small", { class: "hint" }, "the book recommends 250; at most 500")),
    h("div", { class: "row" }, h("label", {}, priv, " private: not listed; share the link yourself")),
    h("div", {}, h("button", { type: "submit", class: "primary", "data-test": "create-duel" }, "Create duel")));

  const open = h("ul", { "data-test": "open-matches", class: "list" }, h("li", {}, "Loading…"));
  const active = h("ul", { "data-test": "active-matches", class: "list" });
  const mine = h("ul", { "data-test": "my-games", class: "list" });
  const campaigns = [];
  for (const [id, g] of Object.entries(games()).sort((a, b) => b[1].saved_at - a[1].saved_at)) {
    if (g.campaign_id) continue; // a campaign's location: listed with its campaign
    const what = h("span", { class: "what" }, g.campaign ? "Divinity campaign" : `${g.game ?? "duel"} · seat ${g.seat}`);
    if (g.campaign) campaigns.push([id, g, what]);
    mine.append(h("li", { "data-match-id": id, "data-test": "my-game" },
      what, ` · ${id.slice(0, 8)} `,
      h("a", { href: g.campaign ? `/campaign/${id}` : `/match/${id}`, "data-link": true, "data-test": "resume" }, "Resume")));
  }
  if (!mine.children.length) mine.append(h("li", {}, "None yet: create or join a game."));
  if (campaigns.length) describeMyCampaigns(campaigns);
  const joinCode = h("input", { placeholder: "join code", "data-test": "join-code", "aria-label": "join code", size: 10 });
  const lobbyEl = h("section", { class: "lobby", "data-test": "lobby", "data-ready": "false" },
      names,
      form,
      campaignForm(go),
      h("form", { class: "card", onsubmit: (ev) => { ev.preventDefault(); if (joinCode.value.trim()) go(`/join/${joinCode.value.trim()}`); } },
        h("h2", {}, "Join with a code"), joinCode, " ", h("button", { type: "submit", "data-test": "join-submit" }, "Join")),
      h("div", { class: "card" }, h("h2", {}, "My games"), mine),
      h("div", { class: "card" }, h("h2", {}, "Open duels"), open),
      h("div", { class: "card" }, h("h2", {}, "Being played"), active));
  app.append(lobbyEl);
  // data-ready: both listings answered (or failed in words): tests wait on it.
  Promise.all([listMatches(open, "open"), listMatches(active, "active")]).then(() => { lobbyEl.dataset.ready = "true"; });
}

async function listMatches(ul, status) {
  try {
    const { matches } = await api("GET", `/api/matches?status=${status}`);
    ul.replaceChildren();
    // Duels to join or watch; a Divinity party's location to watch (its
    // seats are taken through the campaign's own link).
    for (const m of matches.filter((m) => m.game === "duel" || (m.game === "divinity" && status === "active"))) {
      // A campaign's location has no seats of its own (its players hold
      // the campaign's): the campaign says who is at the table.
      const what = h("span", { class: "what" }, m.game === "duel"
        ? `${m.live ? "live" : "correspondence"} duel · ${m.seats_taken.length} of ${m.seats} seats taken`
        : `Divinity, a party of ${m.seats}`);
      if (m.game === "divinity" && m.campaign_id) {
        loadCatalogue().catch(() => null)
          .then(() => api("GET", `/api/campaigns/${m.campaign_id}`))
          .then((st) => { what.textContent = campaignWords(st); }, () => {});
      }
      ul.append(h("li", { "data-match-id": m.match_id, "data-test": "match-row", "data-status": status, "data-game": m.game },
        what, ` · move ${m.seq} `,
        status === "open" && m.join_code ? h("a", { href: `/join/${m.join_code}`, "data-link": true, "data-test": "join" }, "Join") : null, " ",
        h("a", { href: `/watch/${m.match_id}`, "data-link": true, "data-test": "watch" }, "Watch")));
    }
    if (!ul.children.length) ul.append(h("li", {}, status === "open" ? "No open duel: create one." : "None."));
  } catch (e) {
    ul.replaceChildren(h("li", {}, `Could not list matches: ${e.message}`));
  }
}

/// This browser's campaigns in words: its Origin and where the party is.
async function describeMyCampaigns(list) {
  try {
    await loadCatalogue().catch(() => null);
    const { campaigns } = await api("POST", "/api/campaigns/mine", { tokens: list.map(([, g]) => g.token) });
    const stage = { choosing: "choosing Origins", playing: "playing a location", between: "between two locations", over: "over" };
    for (const [id, , what] of list) {
      const st = campaigns.find((c) => c.campaign_id === id);
      if (!st) continue;
      const own = st.seats.find((x) => x.seat === st.you)?.label;
      what.textContent = `Divinity campaign${own ? ` · you play ${originName(own)}` : ""} · ${stage[st.stage] ?? st.stage}`;
    }
  } catch { /* the plain words stay */ }
}

// Links inside the app change the page without a reload.
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-link]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || a.target) return;
  ev.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", route);
route();
